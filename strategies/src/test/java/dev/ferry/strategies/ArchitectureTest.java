package dev.ferry.strategies;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ferry.format.ClockRule;
import org.junit.jupiter.api.Test;

/** Built-in plugins implement the contracts and nothing of the engine (docs/architecture.md, Modules). */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.ferry.strategies");

    @Test
    void shouldReadTimeOnlyThroughTheClock() {
        ClockRule.onlyTheClockReadsTime().check(CLASSES);
    }

    @Test
    void shouldDependOnTheContractsJacksonAndTheJdkOnly() {
        classes()
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.ferry.strategies..", "dev.ferry.api..",
                        "dev.ferry.spi..", "dev.ferry.format..", "com.fasterxml.jackson..", "java..",
                        // the JDK's JDBC data sources and JNDI, for the jdbc offset store
                        "javax.sql..", "javax.naming..")
                .check(CLASSES);
    }

    @Test
    void shouldHaveNoPackageCycles() {
        slices().matching("dev.ferry.(**)").should().beFreeOfCycles().check(CLASSES);
    }
}
