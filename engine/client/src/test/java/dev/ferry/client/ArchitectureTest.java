package dev.ferry.client;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ferry.format.ClockRule;
import org.junit.jupiter.api.Test;

/** The client knows no store and no server (docs/architecture.md, Modules). */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.ferry.client");

    @Test
    void shouldReadTimeOnlyThroughTheClock() {
        ClockRule.onlyTheClockReadsTime().check(CLASSES);
    }

    @Test
    void shouldDependOnTheApiSpiRemotingFormatPrometheusAndTheJdkOnly() {
        classes()
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.ferry.client..", "dev.ferry.api..",
                        "dev.ferry.spi..", "dev.ferry.remoting..", "dev.ferry.format..", "io.prometheus.metrics..",
                        "java..")
                .check(CLASSES);
    }

    @Test
    void shouldLoadThePrometheusLibraryFromClientMetricsOnly() {
        // optional at run time: a client without metrics runs without the library
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses()
                .that().doNotHaveFullyQualifiedName("dev.ferry.client.ClientMetrics")
                .should().dependOnClassesThat().resideInAPackage("io.prometheus..")
                .check(CLASSES);
    }

    @Test
    void shouldHaveNoPackageCycles() {
        slices().matching("dev.ferry.(**)").should().beFreeOfCycles().check(CLASSES);
    }
}
