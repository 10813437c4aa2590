package dev.ferry.ra;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ferry.format.ClockRule;
import org.junit.jupiter.api.Test;

/** The adapter uses the client and the embedded entry point of the server, nothing else of the engine
 * (docs/architecture.md, Modules), and its packages depend on each other one way only.
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.ferry.ra");

    @Test
    void shouldReadTimeOnlyThroughTheClock() {
        ClockRule.onlyTheClockReadsTime().check(CLASSES);
    }

    @Test
    void shouldDependOnTheClientTheEmbeddedEngineTheContractsAndJakartaOnly() {
        classes()
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.ferry.ra..", "dev.ferry.api..",
                        "dev.ferry.spi..", "dev.ferry.client..", "dev.ferry.format..", "dev.ferry.server.embedded..",
                        "dev.ferry.remoting",
                        "jakarta.resource..", "java..", "javax.naming..", "javax.security.auth..",
                        "javax.transaction.xa..", "javax.management..")
                .check(CLASSES);
    }

    /**
     * One slice per package, the core {@code dev.ferry.ra} included: the core knows none of inbound, outbound or
     * management. ({@code "dev.ferry.ra.(**)"} would leave the core out, and with it the cycles through it.)
     */
    @Test
    void shouldKeepTheAdapterPackagesFreeOfCycles() {
        slices().matching("dev.ferry.(ra..)").should().beFreeOfCycles().check(CLASSES);
    }
}
