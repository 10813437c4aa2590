package dev.ferry.components;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ferry.format.ClockRule;
import org.junit.jupiter.api.Test;

/** The components run a server and consumers through their public entry points, nothing deeper
 * (docs/architecture.md, Modules).
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.ferry.components");

    @Test
    void shouldDependOnTheClientTheServersEntryPointTheContractsAndTheDsAnnotationsOnly() {
        // dev.ferry.server without its subpackages: FerryServer, its config and its properties
        classes()
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.ferry.components..", "dev.ferry.api..",
                        "dev.ferry.spi..", "dev.ferry.client..", "dev.ferry.format..", "dev.ferry.server",
                        "org.osgi.service.component.annotations..", "java..")
                .check(CLASSES);
    }

    @Test
    void shouldReadTimeOnlyThroughTheClock() {
        ClockRule.onlyTheClockReadsTime().check(CLASSES);
    }

    @Test
    void shouldHaveNoPackageCycles() {
        slices().matching("dev.ferry.(**)").should().beFreeOfCycles().check(CLASSES);
    }
}
