package dev.ferry.osgi;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Calls into classes loaded inside a framework. The test's own class loader must not see Ferry's types (they would be
 * other classes than the bundles'), so the test reaches them by name: the public method of that name whose
 * parameters take the arguments.
 */
final class Reflect {

    private Reflect() {
    }

    static Object call(Object target, String method, Object... args) {
        return invoke(target.getClass(), target, method, args);
    }

    /** Calls {@code method} of {@code target} as {@code type} (an interface) declares it. */
    static Object callAs(Class<?> type, Object target, String method, Object... args) {
        return invoke(type, target, method, args);
    }

    static Object callStatic(Class<?> type, String method, Object... args) {
        return invoke(type, null, method, args);
    }

    private static Object invoke(Class<?> type, Object target, String name, Object[] args) {
        for (Method method : type.getMethods()) {
            if (method.getName().equals(name) && (target == null) == Modifier.isStatic(method.getModifiers())
                    && accepts(method.getParameterTypes(), args)) {
                try {
                    return method.invoke(target, args);
                } catch (InvocationTargetException e) {
                    throw new IllegalStateException(type.getName() + "." + name + " failed", e.getCause());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new IllegalArgumentException("no public method " + type.getName() + "." + name + " takes "
                + args.length + " such arguments");
    }

    private static boolean accepts(Class<?>[] parameters, Object[] args) {
        if (parameters.length != args.length) {
            return false;
        }
        for (int i = 0; i < parameters.length; i++) {
            Class<?> parameter = parameters[i].isPrimitive() ? boxed(parameters[i]) : parameters[i];
            if (args[i] != null && !parameter.isInstance(args[i])) {
                return false;
            }
        }
        return true;
    }

    private static Class<?> boxed(Class<?> primitive) {
        if (primitive == int.class) {
            return Integer.class;
        }
        if (primitive == long.class) {
            return Long.class;
        }
        if (primitive == boolean.class) {
            return Boolean.class;
        }
        throw new IllegalArgumentException("unexpected primitive " + primitive);
    }
}
