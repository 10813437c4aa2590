package dev.ferry.remoting.protocol;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;

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
    private final Set<String> wireNames = new HashSet<>();
    /** Component indices in the order of their wire names, as Java sorts strings (what a signature covers). */
    private final int[] nameOrder;

    @SuppressWarnings("unchecked")
    private HeaderCodec(Class<?> type) {
        if (!type.isRecord() || !CommandHeader.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(type.getName() + " is not a CommandHeader record");
        }
        this.type = (Class<T>) type;
        RecordComponent[] recordComponents = type.getRecordComponents();
        Class<?>[] parameterTypes = new Class<?>[recordComponents.length];
        this.components = new Component[recordComponents.length];
        try {
            // Readers are defined beside the record, in its class loader, so records from any
            // loader (a plugin's, an application's) work.
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
            for (int i = 0; i < recordComponents.length; i++) {
                RecordComponent rc = recordComponents[i];
                parameterTypes[i] = rc.getType();
                components[i] = new Component(rc, lookup);
                wireNames.add(components[i].wireName);
            }
            this.constructor = lookup.findConstructor(type, MethodType.methodType(void.class, parameterTypes))
                    .asSpreader(Object[].class, parameterTypes.length)
                    .asType(MethodType.methodType(Object.class, Object[].class));
        } catch (Throwable e) {
            throw new IllegalArgumentException("cannot map header record " + type.getName() + ": " + e, e);
        }
        this.nameOrder = IntStream.range(0, components.length).boxed()
                .sorted(Comparator.comparing(i -> components[i].wireName)).mapToInt(Integer::intValue).toArray();
    }

    /** The codec for a header record type. */
    @SuppressWarnings("unchecked")
    public static <T extends Record & CommandHeader> HeaderCodec<T> of(Class<T> type) {
        return (HeaderCodec<T>) CODECS.get(type);
    }

    /** Writes the header's non-null components into {@code fields}. */
    public void encode(T header, Map<String, String> fields) {
        write(header, new HeaderFieldSink() {
            @Override
            public void string(int index, String value) {
                fields.put(components[index].wireName, value);
            }

            @Override
            public void number(int index, long value) {
                fields.put(components[index].wireName, Long.toString(value));
            }

            @Override
            public void bool(int index, boolean value) {
                fields.put(components[index].wireName, Boolean.toString(value));
            }
        });
    }

    /** Hands the header's non-null components to {@code sink}, in declaration order. */
    public void write(T header, HeaderFieldSink sink) {
        if (header instanceof SelfWritingHeader self) {
            self.writeFields(sink);
        } else {
            writeComponents(header, sink);
        }
    }

    /** The generic path: each component through its reader. */
    void writeComponents(T header, HeaderFieldSink sink) {
        for (int i = 0; i < components.length; i++) {
            components[i].write(header, i, sink);
        }
    }

    /** Number of components (fields) of the header. */
    public int size() {
        return components.length;
    }

    /** The extension-field name of component {@code index}. */
    public String wireName(int index) {
        return components[index].wireName;
    }

    /** The extension-field name of component {@code index}, UTF-8 encoded (shared: do not modify). */
    public byte[] wireNameUtf8(int index) {
        return components[index].wireNameUtf8;
    }

    /** The index of the component whose wire name is {@code rank}-th in name order (as Java sorts strings). */
    public int indexInNameOrder(int rank) {
        return nameOrder[rank];
    }

    /** Whether the header has a component travelling as extension field {@code name}. */
    public boolean hasField(String name) {
        return wireNames.contains(name);
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

    /** One record component: how it is named on the wire, read, written and parsed. */
    private static final class Component {
        private enum Kind { INT, LONG, BOOLEAN, BOXED_NUMBER, BOXED_BOOLEAN, STRING, ENUM }

        final String wireName;
        final byte[] wireNameUtf8;
        final ValueType valueType;
        final boolean required;
        private final Kind kind;
        // Exactly one of these reads the component: plain interface calls, which the JIT inlines
        // far better than a method handle held in a field.
        private final ToIntFunction<Object> intReader;
        private final ToLongFunction<Object> longReader;
        private final Predicate<Object> booleanReader;
        private final Function<Object, Object> objectReader;

        @SuppressWarnings("unchecked")
        private Component(RecordComponent rc, MethodHandles.Lookup lookup) throws Throwable {
            HeaderField wire = rc.getAnnotation(HeaderField.class);
            this.wireName = wire != null ? wire.value() : rc.getName();
            this.wireNameUtf8 = wireName.getBytes(StandardCharsets.UTF_8);
            Class<?> t = rc.getType();
            this.valueType = ValueType.of(t);
            this.required = t.isPrimitive() || rc.isAnnotationPresent(Required.class);
            this.kind = t == int.class ? Kind.INT : t == long.class ? Kind.LONG : t == boolean.class ? Kind.BOOLEAN
                    : t == Integer.class || t == Long.class ? Kind.BOXED_NUMBER
                    : t == Boolean.class ? Kind.BOXED_BOOLEAN : t == String.class ? Kind.STRING : Kind.ENUM;
            MethodHandle accessor = lookup.unreflect(rc.getAccessor());
            this.intReader = kind == Kind.INT ? (ToIntFunction<Object>) reader(lookup, accessor, ToIntFunction.class,
                    "applyAsInt", int.class) : null;
            this.longReader = kind == Kind.LONG ? (ToLongFunction<Object>) reader(lookup, accessor,
                    ToLongFunction.class, "applyAsLong", long.class) : null;
            this.booleanReader = kind == Kind.BOOLEAN ? (Predicate<Object>) reader(lookup, accessor, Predicate.class,
                    "test", boolean.class) : null;
            this.objectReader = !t.isPrimitive() ? (Function<Object, Object>) reader(lookup, accessor,
                    Function.class, "apply", Object.class) : null;
        }

        /** An implementation of {@code face} that calls the record accessor. */
        private static Object reader(MethodHandles.Lookup lookup, MethodHandle accessor, Class<?> face,
                                     String method, Class<?> returned) throws Throwable {
            CallSite site = LambdaMetafactory.metafactory(lookup, method, MethodType.methodType(face),
                    MethodType.methodType(returned, Object.class), accessor, accessor.type());
            return site.getTarget().invoke();
        }

        void write(Object header, int index, HeaderFieldSink sink) {
            switch (kind) {
                case INT -> sink.number(index, intReader.applyAsInt(header));
                case LONG -> sink.number(index, longReader.applyAsLong(header));
                case BOOLEAN -> sink.bool(index, booleanReader.test(header));
                default -> {
                    Object value = objectReader.apply(header);
                    if (value == null) {
                        return;
                    }
                    switch (kind) {
                        case BOXED_NUMBER -> sink.number(index, ((Number) value).longValue());
                        case BOXED_BOOLEAN -> sink.bool(index, (Boolean) value);
                        case STRING -> sink.string(index, (String) value);
                        default -> sink.string(index, ((Enum<?>) value).name());
                    }
                }
            }
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
            };
        }
    }
}
