package dev.ferry.osgi;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** The OSGi tests reach Ferry through the bundles a framework loads, never through the test's class path
 * (docs/architecture.md, Modules).
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter().importPackages("dev.ferry.osgi");

    @Test
    void shouldNotCompileAgainstFerrysBundles() {
        // a Ferry class named here would load from the class path, beside the framework's copy, and prove nothing
        // about the bundles: the tests look Ferry's classes up in the framework (Reflect) instead
        noClasses()
                .should().dependOnClassesThat(resideInAPackage("dev.ferry..")
                        .and(resideOutsideOfPackage("dev.ferry.osgi..")))
                .check(CLASSES);
    }

    @Test
    void shouldHaveNoPackageCycles() {
        slices().matching("dev.ferry.(**)").should().beFreeOfCycles().check(CLASSES);
    }
}
