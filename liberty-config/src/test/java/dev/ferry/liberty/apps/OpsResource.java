package dev.ferry.liberty.apps;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.lang.management.ManagementFactory;
import java.security.Principal;
import java.security.PrivilegedExceptionAction;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.security.auth.Subject;

/**
 * What an operator does to the test application's beans: an operation of a bean's Activation management bean,
 * called as a JMX connector calls it (in {@code Subject.doAs} of the user it authenticated, when {@code as} names
 * one), and healing a message body the beans fail on.
 */
@Path("/ops")
@RequestScoped
public class OpsResource {
    @Inject
    private Healing healing;

    @POST
    @Path("/heal")
    public void heal(@QueryParam("bean") String bean, @QueryParam("body") String body) {
        healing.heal(bean, body);
    }

    /** {@code POST /ops/invoke?group=G&operation=O[&arg=A][&as=USER]}: the operation's result, or 400 and why. */
    @POST
    @Path("/invoke")
    @Produces(MediaType.TEXT_PLAIN)
    public Response invoke(@QueryParam("group") String group, @QueryParam("operation") String operation,
                           @QueryParam("arg") String arg, @QueryParam("as") String user) {
        try {
            ObjectName bean = activationOf(group);
            Object[] arguments = arg == null ? new Object[0] : new Object[] {arg};
            String[] signature = arg == null ? new String[0] : new String[] {String.class.getName()};
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            PrivilegedExceptionAction<Object> call = () -> server.invoke(bean, operation, arguments, signature);
            Object result = user == null ? call.run()
                    : Subject.doAs(new Subject(true, Set.of((Principal) () -> user), Set.of(), Set.of()), call);
            return Response.ok(String.valueOf(result)).build();
        } catch (Exception e) {
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            return Response.status(400).entity(cause.toString()).build();
        }
    }

    private static ObjectName activationOf(String group) throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (ObjectName name : server.queryNames(new ObjectName("dev.ferry:type=Activation,*"), null)) {
            if (group.equals(server.getAttribute(name, "ConsumerGroup"))) {
                return name;
            }
        }
        throw new IllegalArgumentException("no activation of group " + group);
    }
}
