package dev.ferry.spi;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ferry.format.ClockRule;
import org.junit.jupiter.api.Test;

/**
 * The plugin contracts: the API, the format and the JDK, and the OSGi API for the lookup in a framework
 * (docs/architecture.md, Modules).
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.ferry.spi");

    @Test
    void shouldReadTimeOnlyThroughTheClock() {
        ClockRule.onlyTheClockReadsTime().check(CLASSES);
    }

    @Test
    void shouldDependOnTheApiTheFormatAndTheJdkOnly() {
        classes().that().doNotBelongToAnyOf(BundlePlugins.class)
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.ferry.spi..", "dev.ferry.api..",
                        "dev.ferry.format..", "java..")
                .check(CLASSES);
    }

    /** The framework's API is optional at run time: one class uses it, and only inside a framework. */
    @Test
    void shouldLeaveTheOsgiApiToTheBundleLookup() {
        classes().that().belongToAnyOf(BundlePlugins.class)
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.ferry.spi..", "org.osgi.framework..",
                        "java..")
                .check(CLASSES);
    }

    @Test
    void shouldHaveNoPackageCycles() {
        slices().matching("dev.ferry.(**)").should().beFreeOfCycles().check(CLASSES);
    }
}
