package dev.ferry.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ferry.format.ClockRule;
import org.junit.jupiter.api.Test;

/** The server: name server and broker apart, the command line and the embedded entry point on top
 * (docs/architecture.md, Modules).
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.ferry.server");

    @Test
    void shouldReadTimeOnlyThroughTheClock() {
        ClockRule.onlyTheClockReadsTime().check(CLASSES);
    }

    @Test
    void shouldDependOnTheEngineModulesCaffeineJacksonPicocliNettyPrometheusAndTheJdkOnly() {
        classes()
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.ferry.server..", "dev.ferry.api..",
                        "dev.ferry.spi..", "dev.ferry.remoting..", "dev.ferry.store..", "dev.ferry.format..",
                        "com.github.benmanes.caffeine..", "com.fasterxml.jackson..", "picocli..",
                        "io.netty..", "io.prometheus.metrics..", "java..", "javax.management..")
                .check(CLASSES);
    }

    @Test
    void shouldKeepThePrometheusLibraryToTheMetricsPackage() {
        // optional at run time (an OSGi framework without it runs Ferry with metrics off): loaded only from here
        noClasses().that().resideOutsideOfPackage("dev.ferry.server.metrics..")
                .should().dependOnClassesThat().resideInAPackage("io.prometheus..")
                .check(CLASSES);
    }

    @Test
    void shouldKeepTheCommandLineToItsOwnPackage() {
        noClasses().that().resideOutsideOfPackage("dev.ferry.server.cli..")
                .should().dependOnClassesThat().resideInAPackage("picocli..")
                .check(CLASSES);
    }

    @Test
    void shouldKeepNettyToTheCommandLineAndTheMetricsEndpoint() {
        // the servers reach the network through ferry-remoting; the metrics endpoint speaks HTTP with Netty's codec
        noClasses().that().resideOutsideOfPackages("dev.ferry.server.cli..", "dev.ferry.server.metrics..")
                .should().dependOnClassesThat().resideInAPackage("io.netty..")
                .check(CLASSES);
    }

    @Test
    void shouldKeepNettysHttpCodecToTheMetricsPackage() {
        // optional at run time like the Prometheus library: loaded only when metrics are on
        noClasses().that().resideOutsideOfPackage("dev.ferry.server.metrics..")
                .should().dependOnClassesThat().resideInAPackage("io.netty.handler.codec.http..")
                .check(CLASSES);
    }

    @Test
    void shouldNotLetTheServerDependOnItsCommandLine() {
        noClasses().that().resideOutsideOfPackage("dev.ferry.server.cli..")
                .should().dependOnClassesThat().resideInAPackage("dev.ferry.server.cli..")
                .check(CLASSES);
    }

    @Test
    void shouldNotLetTheServerDependOnItsEmbeddedEntryPoint() {
        noClasses().that().resideOutsideOfPackage("dev.ferry.server.embedded..")
                .should().dependOnClassesThat().resideInAPackage("dev.ferry.server.embedded..")
                .check(CLASSES);
    }

    @Test
    void shouldNotLetTheNameServerDependOnTheBroker() {
        noClasses().that().resideInAPackage("dev.ferry.server.namesrv..")
                .should().dependOnClassesThat().resideInAPackage("dev.ferry.server.broker..")
                .check(CLASSES);
    }

    @Test
    void shouldNotLetTheBrokerDependOnTheNameServer() {
        noClasses().that().resideInAPackage("dev.ferry.server.broker..")
                .should().dependOnClassesThat().resideInAPackage("dev.ferry.server.namesrv..")
                .check(CLASSES);
    }

    @Test
    void shouldHaveNoPackageCycles() {
        slices().matching("dev.ferry.(**)").should().beFreeOfCycles().check(CLASSES);
    }
}
