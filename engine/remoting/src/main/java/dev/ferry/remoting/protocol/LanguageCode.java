package dev.ferry.remoting.protocol;

/**
 * The language a peer declares in every command header. JSON headers carry the name, binary
 * headers the one-byte code; both are RocketMQ's.
 */
public enum LanguageCode {
    JAVA(0), CPP(1), DOTNET(2), PYTHON(3), DELPHI(4), ERLANG(5), RUBY(6), OTHER(7), HTTP(8),
    GO(9), PHP(10), OMS(11), RUST(12), NODE_JS(13);

    private static final LanguageCode[] BY_CODE = values();

    private final byte code;

    LanguageCode(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    /** Unknown codes map to {@link #OTHER}: a newer peer must not be cut off for its language. */
    public static LanguageCode ofCode(byte code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : OTHER;
    }

    /** Unknown names map to {@link #OTHER}, for the same reason as {@link #ofCode(byte)}. */
    public static LanguageCode ofName(String name) {
        for (LanguageCode language : BY_CODE) {
            if (language.name().equals(name)) {
                return language;
            }
        }
        return OTHER;
    }
}
