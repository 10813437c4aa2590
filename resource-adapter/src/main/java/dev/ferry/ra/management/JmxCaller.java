package dev.ferry.ra.management;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Set;
import java.util.TreeSet;
import javax.security.auth.Subject;

/**
 * Who invokes a management operation, as the server's JMX connector says it: the principals of the subject the
 * connector runs the call as ({@code Subject.doAs}); "an unauthenticated caller" when there is none (a local
 * connection, a call from inside the server).
 */
final class JmxCaller {
    static final String UNKNOWN = "an unauthenticated caller";
    private static final Method CURRENT_SUBJECT = currentSubjectMethod();

    private JmxCaller() {
    }

    /** The calling thread's principals' names, or {@link #UNKNOWN}. */
    static String describe() {
        Subject subject = currentSubject();
        if (subject == null || subject.getPrincipals().isEmpty()) {
            return UNKNOWN;
        }
        Set<String> names = new TreeSet<>();
        for (Principal principal : subject.getPrincipals()) {
            names.add(principal.getName());
        }
        return String.join(", ", names);
    }

    /**
     * {@code Subject.current()} where the JDK has it (18 and later), else {@code Subject.getSubject} of the
     * access-control context; looked up by name so that the adapter builds on 17 and runs on later JDKs.
     */
    private static Subject currentSubject() {
        try {
            if (CURRENT_SUBJECT.getParameterCount() == 0) {
                return (Subject) CURRENT_SUBJECT.invoke(null);
            }
            Object context = Class.forName("java.security.AccessController").getMethod("getContext").invoke(null);
            return (Subject) CURRENT_SUBJECT.invoke(null, context);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static Method currentSubjectMethod() {
        try {
            return Subject.class.getMethod("current");
        } catch (NoSuchMethodException e) {
            try {
                return Subject.class.getMethod("getSubject",
                        Class.forName("java.security.AccessControlContext"));
            } catch (ReflectiveOperationException ex) {
                throw new ExceptionInInitializerError(ex);
            }
        }
    }
}
