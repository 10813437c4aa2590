package dev.ferry.ra.management;

import java.lang.management.ManagementFactory;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * One bean registered in the platform MBean server for as long as what it shows lives. A server that refuses the
 * registration (a security manager, a name taken) costs a warning, never the activation or the engine.
 */
public final class ManagementBeans implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ManagementBeans.class.getName());
    /** The domain of every Ferry bean. */
    public static final String DOMAIN = "dev.ferry";

    private final MBeanServer server;
    private final ObjectName name;
    private final boolean registered;

    private ManagementBeans(MBeanServer server, ObjectName name, boolean registered) {
        this.server = server;
        this.name = name;
        this.registered = registered;
    }

    /** Registers {@code bean} as {@code dev.ferry:type=<type>,name="<name>"}, replacing a stale one of that name. */
    public static ManagementBeans register(String type, String name, Object bean) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName objectName;
        try {
            objectName = new ObjectName(DOMAIN + ":type=" + type + ",name=" + ObjectName.quote(name));
        } catch (JMException e) {
            LOG.log(System.Logger.Level.WARNING, "FERRY-RA-0300 no management bean for {0}: {1}", name,
                    e.getMessage());
            return new ManagementBeans(server, null, false);
        }
        try {
            try {
                server.registerMBean(bean, objectName);
            } catch (InstanceAlreadyExistsException e) {
                server.unregisterMBean(objectName); // left by an activation that did not close
                server.registerMBean(bean, objectName);
            }
            return new ManagementBeans(server, objectName, true);
        } catch (JMException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "FERRY-RA-0300 no management bean for {0}: {1}", name,
                    e.getMessage());
            return new ManagementBeans(server, objectName, false);
        }
    }

    public ObjectName name() {
        return name;
    }

    @Override
    public void close() {
        if (!registered) {
            return;
        }
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException e) {
            // already gone
        } catch (JMException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot unregister {0}: {1}", name, e.getMessage());
        }
    }
}
