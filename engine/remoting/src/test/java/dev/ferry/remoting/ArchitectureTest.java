package dev.ferry.remoting;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ferry.format.ClockRule;
import org.junit.jupiter.api.Test;

/** Remoting knows frames and Netty, no business; of Ferry only the format below it (docs/architecture.md, Modules). */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.ferry.remoting");

    @Test
    void shouldReadTimeOnlyThroughTheClock() {
        ClockRule.onlyTheClockReadsTime().check(CLASSES);
    }

    @Test
    void shouldDependOnTheFormatNettyJacksonAndTheJdkOnly() {
        classes()
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.ferry.remoting..", "dev.ferry.format..",
                        "io.netty..", "com.fasterxml.jackson..", "java..", "javax.net.ssl..", "javax.crypto..")
                .check(CLASSES);
    }

    @Test
    void shouldHaveNoPackageCycles() {
        slices().matching("dev.ferry.(**)").should().beFreeOfCycles().check(CLASSES);
    }
}
