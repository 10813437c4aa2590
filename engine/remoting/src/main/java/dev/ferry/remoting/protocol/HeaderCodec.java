package dev.ferry.remoting.protocol;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.Map;

/**
 * Maps a header record to a command's extension fields and back.
 *
 * <p>Each codec inspects its record once (component names, {@link HeaderField} wire names,
 * {@link Required} marks) and from then on works through method handles, so encoding and
 * decoding do no reflection. Values travel as strings, as RocketMQ's do. Codecs are immutable
 * and shared; {@link #of(Class)} caches one per record type.
 *
 * @param <T> the header record type
 */
public final class HeaderCodec<T extends Record & CommandHeader> {

    private static final ClassValue<HeaderCodec<?>> CODECS = new ClassValue<>() {
        @Override
        protected HeaderCodec<?> computeValue(Class<?> type) {
            return new HeaderCodec<>(type);
        }
    };

    private final Class<T> type;
    private final Component[] components;
    private final MethodHandle constructor;

    @SuppressWarnings("unchecked")
    private HeaderCodec(Class<?> type) {
        if (!type.isRecord() || !CommandHeader.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(type.getName() + " is not a CommandHeader record");
        }
        this.type = (Class<T>) type;
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        RecordComponent[] recordComponents = type.getRecordComponents();
        Class<?>[] parameterTypes = new Class<?>[recordComponents.length];
        this.components = new Component[recordComponents.length];
        try {
            for (int i = 0; i < recordComponents.length; i++) {
                RecordComponent rc = recordComponents[i];
                parameterTypes[i] = rc.getType();
                components[i] = Component.of(rc, lookup.unreflect(rc.getAccessor())
                        .asType(MethodType.methodType(Object.class, Object.class)));
            }
            this.constructor = lookup.findConstructor(type, MethodType.methodType(void.class, parameterTypes))
                    .asSpreader(Object[].class, parameterTypes.length)
                    .asType(MethodType.methodType(Object.class, Object[].class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("header record " + type.getName() + " must be public", e);
        }
    }

    /** The codec for a header record type. */
    @SuppressWarnings("unchecked")
    public static <T extends Record & CommandHeader> HeaderCodec<T> of(Class<T> type) {
        return (HeaderCodec<T>) CODECS.get(type);
    }

    /** Writes the header's non-null components into {@code fields}. */
    public void encode(T header, Map<String, String> fields) {
        for (Component component : components) {
            Object value;
            try {
                value = (Object) component.accessor.invokeExact((Object) header);
            } catch (Throwable e) {
                throw new IllegalStateException("cannot read " + component.name + " of " + type.getSimpleName(), e);
            }
            if (value != null) {
                fields.put(component.wireName, component.valueType.format(value));
            }
        }
    }

    /**
     * Builds the header from extension fields; unknown fields are ignored.
     *
     * @throws HeaderFormatException when a required field is missing or a value does not parse
     */
    public T decode(Map<String, String> fields) {
        Object[] args = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            Component component = components[i];
            String text = fields.get(component.wireName);
            if (text == null) {
                if (component.required) {
                    throw new HeaderFormatException("the " + type.getSimpleName() + " header lacks the required field '"
                            + component.wireName + "'");
                }
                args[i] = component.valueType.absent();
            } else {
                args[i] = component.parse(type, text);
            }
        }
        try {
            return type.cast((Object) constructor.invokeExact(args));
        } catch (RuntimeException e) {
            throw new HeaderFormatException("invalid " + type.getSimpleName() + " header: " + e.getMessage(), e);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot construct " + type.getSimpleName(), e);
        }
    }

    private record Component(String name, String wireName, ValueType valueType, boolean required,
                             MethodHandle accessor) {

        static Component of(RecordComponent rc, MethodHandle accessor) {
            HeaderField wire = rc.getAnnotation(HeaderField.class);
            String wireName = wire != null ? wire.value() : rc.getName();
            ValueType valueType = ValueType.of(rc.getType());
            boolean required = rc.getType().isPrimitive() || rc.isAnnotationPresent(Required.class);
            return new Component(rc.getName(), wireName, valueType, required, accessor);
        }

        Object parse(Class<?> header, String text) {
            try {
                return valueType.parse(text);
            } catch (IllegalArgumentException e) {
                throw new HeaderFormatException("the " + header.getSimpleName() + " header field '" + wireName
                        + "' has the value '" + text + "', which is not " + valueType.description, e);
            }
        }
    }

    /** The value types a header component may have, with their string forms. */
    private abstract static class ValueType {
        final String description;

        ValueType(String description) {
            this.description = description;
        }

        abstract Object parse(String text);

        String format(Object value) {
            return value.toString();
        }

        Object absent() {
            return null;
        }

        static ValueType of(Class<?> type) {
            if (type == String.class) {
                return new ValueType("a string") {
                    @Override
                    Object parse(String text) {
                        return text;
                    }
                };
            }
            if (type == int.class || type == Integer.class) {
                return new ValueType("an int") {
                    @Override
                    Object parse(String text) {
                        return Integer.parseInt(text.trim());
                    }
                };
            }
            if (type == long.class || type == Long.class) {
                return new ValueType("a long") {
                    @Override
                    Object parse(String text) {
                        return Long.parseLong(text.trim());
                    }
                };
            }
            if (type == boolean.class || type == Boolean.class) {
                // As RocketMQ: anything but "true" (any case) is false.
                return new ValueType("a boolean") {
                    @Override
                    Object parse(String text) {
                        return Boolean.parseBoolean(text.trim());
                    }
                };
            }
            if (type.isEnum()) {
                return enumType(type);
            }
            throw new IllegalArgumentException("unsupported header component type " + type.getName());
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private static ValueType enumType(Class<?> type) {
            Class<? extends Enum> enumType = (Class<? extends Enum>) type;
            return new ValueType("one of " + java.util.Arrays.toString(type.getEnumConstants())) {
                @Override
                Object parse(String text) {
                    return Enum.valueOf(enumType, text.trim());
                }

                @Override
                String format(Object value) {
                    return ((Enum<?>) value).name();
                }
            };
        }
    }
}
