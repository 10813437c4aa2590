package dev.ferry.liberty.support;

import dev.ferry.liberty.apps.BackoffMdb;
import dev.ferry.liberty.apps.BatchMdb;
import dev.ferry.liberty.apps.Deliveries;
import dev.ferry.liberty.apps.Delivery;
import dev.ferry.liberty.apps.Healing;
import dev.ferry.liberty.apps.OpsResource;
import dev.ferry.liberty.apps.PauseMdb;
import dev.ferry.liberty.apps.PoisonBean;
import dev.ferry.liberty.apps.PoisonConcurrentMdb;
import dev.ferry.liberty.apps.PoisonOrderlyMdb;
import dev.ferry.liberty.apps.ProbeApplication;
import dev.ferry.liberty.apps.ProbeResource;
import dev.ferry.liberty.apps.ReplayMdb;
import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The archives the tests deploy. Their names matter: a standalone WAR's module name starts the id of its beans'
 * activation specs ({@code order-app/OrderMdb}), and each test server declares the names it expects.
 */
public final class TestApps {
    private static final File ORDER_APP = new File("target/test-apps/order-app.war");

    private TestApps() {
    }

    /** The order-app sample as the build made it, deployed as {@code name.war} (context root {@code /name}). */
    public static WebArchive orderApp(String name) {
        if (!ORDER_APP.isFile()) {
            throw new IllegalStateException(ORDER_APP + " is missing: the build copies it before the tests");
        }
        return ShrinkWrap.create(WebArchive.class, name + ".war")
                .merge(ShrinkWrap.createFromZipFile(WebArchive.class, ORDER_APP));
    }

    /** ops-app: the beans of {@link BeanOperations}, with the probe and the operator's resource. */
    public static WebArchive opsApp() {
        return probeApp(BeanOperations.APP, OpsResource.class, Healing.class, BatchMdb.class, PoisonBean.class,
                PoisonOrderlyMdb.class, PoisonConcurrentMdb.class, BackoffMdb.class, ReplayMdb.class, PauseMdb.class);
    }

    /** A test application: the probe resource and its store, plus {@code classes}. Never Ferry's own classes. */
    public static WebArchive probeApp(String name, Class<?>... classes) {
        return ShrinkWrap.create(WebArchive.class, name + ".war")
                .addClasses(ProbeApplication.class, ProbeResource.class, Deliveries.class, Delivery.class)
                .addClasses(classes);
    }
}
