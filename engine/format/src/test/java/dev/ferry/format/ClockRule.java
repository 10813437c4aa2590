package dev.ferry.format;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;

/**
 * The rule every module's ArchitectureTest checks: time is read through an injected {@link Clock}, never from the
 * system directly, so that a test can drive it and one type carries it everywhere.
 */
public final class ClockRule {
    private ClockRule() {
    }

    /** No class but the system clock calls the system's clocks or uses {@code java.time.Clock}. */
    public static ArchRule onlyTheClockReadsTime() {
        return noClasses().that().doNotHaveFullyQualifiedName(SystemClock.class.getName())
                .should().callMethod(System.class, "nanoTime")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(Instant.class, "now")
                .orShould().callMethod(LocalDate.class, "now")
                .orShould().callMethod(LocalDateTime.class, "now")
                .orShould().callMethod(ZonedDateTime.class, "now")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.Clock")
                .because("time comes from an injected dev.ferry.format.Clock (docs/architecture.md, Time)");
    }
}
