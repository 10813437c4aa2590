package dev.ferry.remoting;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderCodec;
import dev.ferry.remoting.protocol.LanguageCode;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.SerializeType;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One request or response of the remoting protocol.
 *
 * <p>Immutable, except that {@link #body()} hands out its array without copying: treat it as
 * read-only. A body may also be given as buffers ({@link Builder#bodyParts}), such as slices of a
 * store's mapped files: they are written to the connection without being copied into an array
 * first. Requests and responses share the layout; bit 0 of {@link #flag()} marks a
 * response, bit 1 a oneway request. {@link #opaque()} pairs a response with its request.
 * Typed headers travel as {@link #extFields()} (see {@link HeaderCodec}).
 */
public final class RemotingCommand {
    /** Flag bit of a response. */
    public static final int FLAG_RESPONSE = 1;
    /** Flag bit of a request that expects no response. */
    public static final int FLAG_ONEWAY = 1 << 1;
    /** The protocol version Apache RocketMQ 5.3.3 declares; brokers pick behaviours by it. */
    public static final int DEFAULT_VERSION = 479;

    private static final byte[] NO_BODY = new byte[0];

    private final int code;
    private final LanguageCode language;
    private final int version;
    private final int opaque;
    private final int flag;
    private final String remark;
    private final Map<String, String> explicitFields;
    private final CommandHeader typedHeader;
    private volatile Map<String, String> mergedFields;
    private volatile byte[] body;
    private final List<ByteBuffer> bodyParts;
    private final SerializeType serializeType;

    private RemotingCommand(Builder b) {
        this.code = b.code;
        this.language = b.language;
        this.version = b.version;
        this.opaque = b.opaque;
        this.flag = b.flag;
        this.remark = b.remark;
        this.explicitFields = b.extFields == null || b.extFields.isEmpty()
                ? Map.of() : Collections.unmodifiableMap(b.extFields);
        this.typedHeader = b.typedHeader;
        this.body = b.bodyParts == null ? b.body : null;
        this.bodyParts = b.bodyParts;
        this.serializeType = b.serializeType;
    }

    /** A builder for a request with the given code. */
    public static Builder request(int code) {
        return new Builder(code, 0);
    }

    /** A request carrying a typed header. */
    public static <T extends Record & CommandHeader> Builder request(int code, T header) {
        return request(code).header(header);
    }

    /** A builder for a response to {@code request}: same opaque, response flag set. */
    public static Builder responseTo(RemotingCommand request, int code) {
        Builder b = new Builder(code, FLAG_RESPONSE);
        b.opaque = request.opaque;
        b.serializeType = request.serializeType;
        return b;
    }

    /** A builder that starts from this command's values. */
    public Builder toBuilder() {
        Builder b = new Builder(code, flag);
        b.language = language;
        b.version = version;
        b.opaque = opaque;
        b.remark = remark;
        b.extFields = explicitFields.isEmpty() ? null : new HashMap<>(explicitFields);
        b.typedHeader = typedHeader;
        b.body = bodyParts == null ? body : null;
        b.bodyParts = bodyParts;
        b.serializeType = serializeType;
        return b;
    }

    /** This command with another opaque; the rest is shared, not copied. */
    public RemotingCommand withOpaque(int newOpaque) {
        return newOpaque == opaque ? this : new RemotingCommand(this, newOpaque);
    }

    private RemotingCommand(RemotingCommand source, int opaque) {
        this.code = source.code;
        this.language = source.language;
        this.version = source.version;
        this.opaque = opaque;
        this.flag = source.flag;
        this.remark = source.remark;
        this.explicitFields = source.explicitFields;
        this.typedHeader = source.typedHeader;
        this.mergedFields = source.mergedFields;
        this.body = source.body;
        this.bodyParts = source.bodyParts;
        this.serializeType = source.serializeType;
    }

    public int code() {
        return code;
    }

    public LanguageCode language() {
        return language;
    }

    public int version() {
        return version;
    }

    public int opaque() {
        return opaque;
    }

    public int flag() {
        return flag;
    }

    /** A human-readable explanation, mostly of error responses; {@code null} when absent. */
    public String remark() {
        return remark;
    }

    /** The extension fields, typed header included (never {@code null}, unmodifiable). */
    public Map<String, String> extFields() {
        if (typedHeader == null) {
            return explicitFields;
        }
        Map<String, String> merged = mergedFields;
        if (merged == null) {
            Map<String, String> fields = new HashMap<>(explicitFields);
            encodeInto(typedHeader, fields);
            merged = Collections.unmodifiableMap(fields);
            mergedFields = merged;
        }
        return merged;
    }

    /** One extension field, or {@code null}. */
    public String extField(String name) {
        return extFields().get(name);
    }

    /**
     * For serializers: the extension fields set one by one, which never share a name with the
     * fields of {@link #typedHeader()}.
     */
    public Map<String, String> explicitExtFields() {
        return explicitFields;
    }

    /** For serializers: the typed header the command was built with, or {@code null}. */
    public CommandHeader typedHeader() {
        return typedHeader;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void encodeInto(CommandHeader header, Map<String, String> fields) {
        HeaderCodec.of((Class) header.getClass()).encode((Record) header, fields);
    }

    /**
     * The body; an empty array when there is none. Not copied: do not modify. A body given as
     * buffers is copied into one array on the first call.
     */
    public byte[] body() {
        byte[] bytes = body;
        if (bytes == null) {
            bytes = new byte[bodyLength()];
            int position = 0;
            for (ByteBuffer part : bodyParts) {
                ByteBuffer view = part.duplicate();
                int length = view.remaining();
                view.get(bytes, position, length);
                position += length;
            }
            body = bytes;
        }
        return bytes;
    }

    /** The body's length in bytes, without copying a body given as buffers. */
    public int bodyLength() {
        byte[] bytes = body;
        if (bytes != null) {
            return bytes.length;
        }
        int length = 0;
        for (ByteBuffer part : bodyParts) {
            length += part.remaining();
        }
        return length;
    }

    /** The body as buffers when it was given so (for writers that avoid copying), else {@code null}. */
    public List<ByteBuffer> bodyParts() {
        return bodyParts;
    }

    /** How this command's header is (or was) serialized on the wire. */
    public SerializeType serializeType() {
        return serializeType;
    }

    public boolean isResponse() {
        return (flag & FLAG_RESPONSE) != 0;
    }

    public boolean isOneway() {
        return (flag & FLAG_ONEWAY) != 0;
    }

    /**
     * Decodes the typed header this command carries.
     *
     * @throws dev.ferry.remoting.protocol.HeaderFormatException when a required field is missing
     *         or malformed
     */
    public <T extends Record & CommandHeader> T header(Class<T> type) {
        if (type.isInstance(typedHeader)) {
            return type.cast(typedHeader);
        }
        return HeaderCodec.of(type).decode(extFields());
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof RemotingCommand other)) {
            return false;
        }
        return code == other.code && version == other.version && opaque == other.opaque && flag == other.flag
                && language == other.language && Objects.equals(remark, other.remark)
                && extFields().equals(other.extFields()) && Arrays.equals(body(), other.body());
    }

    @Override
    public int hashCode() {
        return Objects.hash(code, language, version, opaque, flag, remark, extFields(), Arrays.hashCode(body()));
    }

    /**
     * A bounded description for logs: at most {@value #SHOWN_FIELDS} extension fields and {@value #SHOWN_CHARACTERS}
     * characters of each value and of the remark, control characters escaped, so that no request, however large or
     * crafted, can flood or forge a log line.
     */
    @Override
    public String toString() {
        String name = isResponse() ? ResponseCode.nameOf(code) : RequestCode.nameOf(code);
        StringBuilder out = new StringBuilder(256).append(isResponse() ? "response " : isOneway()
                ? "oneway request " : "request ").append(name).append("[opaque=").append(opaque).append(", remark=");
        appendShown(out, remark);
        out.append(", extFields={");
        int shown = 0;
        Map<String, String> fields = extFields();
        for (Map.Entry<String, String> field : fields.entrySet()) {
            if (shown == SHOWN_FIELDS) {
                out.append(", ... ").append(fields.size() - shown).append(" more");
                break;
            }
            if (shown++ > 0) {
                out.append(", ");
            }
            appendShown(out, field.getKey());
            out.append('=');
            appendShown(out, field.getValue());
        }
        return out.append("}, body=").append(bodyLength()).append(" bytes, ").append(serializeType).append(']')
                .toString();
    }

    private static final int SHOWN_FIELDS = 20;
    private static final int SHOWN_CHARACTERS = 64;

    private static void appendShown(StringBuilder out, String text) {
        if (text == null) {
            out.append("null");
            return;
        }
        int end = Math.min(text.length(), SHOWN_CHARACTERS);
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        if (end < text.length()) {
            out.append("...(").append(text.length()).append(" chars)");
        }
    }

    /** Builds a {@link RemotingCommand}. Not thread-safe. */
    public static final class Builder {
        private int code;
        private LanguageCode language = LanguageCode.JAVA;
        private int version = DEFAULT_VERSION;
        private int opaque;
        private int flag;
        private String remark;
        private Map<String, String> extFields;
        private CommandHeader typedHeader;
        private byte[] body = NO_BODY;
        private List<ByteBuffer> bodyParts;
        private SerializeType serializeType = SerializeType.JSON;

        private Builder(int code, int flag) {
            this.code = code;
            this.flag = flag;
        }

        /** A builder with every field at its default, for decoders. */
        public static Builder blank() {
            return new Builder(0, 0);
        }

        public Builder code(int value) {
            this.code = value;
            return this;
        }

        public Builder language(LanguageCode value) {
            this.language = Objects.requireNonNull(value, "language");
            return this;
        }

        public Builder version(int value) {
            this.version = value;
            return this;
        }

        public Builder opaque(int value) {
            this.opaque = value;
            return this;
        }

        public Builder flag(int value) {
            this.flag = value;
            return this;
        }

        /** Marks (or unmarks) the request as oneway. */
        public Builder oneway(boolean value) {
            this.flag = value ? flag | FLAG_ONEWAY : flag & ~FLAG_ONEWAY;
            return this;
        }

        public Builder remark(String value) {
            this.remark = value;
            return this;
        }

        /** Adds one extension field; a {@code null} value removes it. */
        public Builder extField(String name, String value) {
            Objects.requireNonNull(name, "name");
            if (typedHeader != null && codecOf(typedHeader).hasField(name)) {
                mergeTypedHeader();
            }
            if (value == null) {
                if (extFields != null) {
                    extFields.remove(name);
                }
                return this;
            }
            if (extFields == null) {
                extFields = new HashMap<>();
            }
            extFields.put(name, value);
            return this;
        }

        /** Replaces the extension fields (a typed header's included); the map is taken over, not copied. */
        public Builder extFields(Map<String, String> value) {
            this.extFields = value;
            this.typedHeader = null;
            return this;
        }

        /** Adds a typed header's fields to the extension fields; they win over fields of the same name. */
        public <T extends Record & CommandHeader> Builder header(T header) {
            Objects.requireNonNull(header, "header");
            if (typedHeader != null) {
                mergeTypedHeader();
            }
            HeaderCodec<?> codec = codecOf(header);
            if (extFields != null) {
                extFields.keySet().removeIf(codec::hasField);
            }
            typedHeader = header;
            return this;
        }

        private void mergeTypedHeader() {
            if (extFields == null) {
                extFields = new HashMap<>();
            }
            encodeInto(typedHeader, extFields);
            typedHeader = null;
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private static HeaderCodec<?> codecOf(CommandHeader header) {
            return HeaderCodec.of((Class) header.getClass());
        }

        /** The body as buffers, written in order without being copied; the buffers are not modified. */
        public Builder bodyParts(List<ByteBuffer> value) {
            this.bodyParts = List.copyOf(value);
            this.body = NO_BODY;
            return this;
        }

        /** The body; {@code null} means none. The array is taken over, not copied. */
        public Builder body(byte[] value) {
            this.bodyParts = null;
            this.body = value == null ? NO_BODY : value;
            return this;
        }

        public Builder serializeType(SerializeType value) {
            this.serializeType = Objects.requireNonNull(value, "serializeType");
            return this;
        }

        public RemotingCommand build() {
            return new RemotingCommand(this);
        }
    }
}
