package dev.ferry.remoting.ha;

import dev.ferry.remoting.Credentials;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A slave's answer to its master's {@link HaGreeting}: {@link HaGreeting#MAGIC}, the body's length (2 bytes), and the
 * body: version (1 byte), brokerId (8), brokerName, access key and signature, each a 1-byte length and that many
 * bytes. The signature is HMAC-SHA256, keyed with the secret key, over a fixed label, the master's nonce and the body
 * up to the signature; the secret itself never travels. No access key and no signature when the slave has no
 * credentials.
 *
 * @param brokerId   the slave's id in its group
 * @param brokerName its broker group's name
 * @param accessKey  the access key it signed with, empty for none
 * @param signature  the signature, empty for none
 */
record HaHello(long brokerId, String brokerName, String accessKey, byte[] signature) {
    static final int MAX_NAME_BYTES = 255;
    static final int MAX_KEY_BYTES = 255;
    static final int SIGNATURE_SIZE = 32;
    /** The largest body this version may have; a longer announced length is refused before any byte is held. */
    static final int MAX_BODY = 1 + 8 + 1 + MAX_NAME_BYTES + 1 + MAX_KEY_BYTES + 1 + SIGNATURE_SIZE;
    /** Magic and body length. */
    static final int PREFIX = 4 + 2;
    private static final String ALGORITHM = "HmacSHA256";
    private static final byte[] LABEL = "ferry-ha-hello".getBytes(StandardCharsets.US_ASCII);

    /** The hello {@code identity} answers {@code nonce} with: signed when it has credentials. */
    static HaHello of(HaIdentity identity, byte[] nonce) {
        String accessKey = identity.credentials().map(Credentials::accessKey).orElse("");
        HaHello unsigned = new HaHello(identity.brokerId(), identity.brokerName(), accessKey, new byte[0]);
        return identity.credentials().map(c -> new HaHello(identity.brokerId(), identity.brokerName(), accessKey,
                sign(c.secretKey(), nonce, unsigned.signedPart()))).orElse(unsigned);
    }

    void writeTo(ByteBuf out) {
        byte[] signed = signedPart();
        out.writeInt(HaGreeting.MAGIC).writeShort(signed.length + 1 + signature.length).writeBytes(signed)
                .writeByte(signature.length).writeBytes(signature);
    }

    /**
     * Reads a hello's body of exactly {@code body}'s readable bytes; empty when it is not one of this version (bad
     * lengths, bytes left over, names that are not UTF-8).
     */
    static Optional<HaHello> read(ByteBuf body) {
        if (body.readableBytes() < 1 + 8 + 3 || body.readUnsignedByte() != HaGreeting.VERSION) {
            return Optional.empty();
        }
        long brokerId = body.readLong();
        Optional<String> name = text(body, MAX_NAME_BYTES);
        Optional<String> key = name.isPresent() ? text(body, MAX_KEY_BYTES) : Optional.empty();
        if (key.isEmpty() || body.readableBytes() < 1) {
            return Optional.empty();
        }
        int length = body.readUnsignedByte();
        if ((length != 0 && length != SIGNATURE_SIZE) || body.readableBytes() != length) {
            return Optional.empty();
        }
        byte[] signature = new byte[length];
        body.readBytes(signature);
        return Optional.of(new HaHello(brokerId, name.get(), key.get(), signature));
    }

    private static Optional<String> text(ByteBuf in, int maxBytes) {
        if (in.readableBytes() < 1) {
            return Optional.empty();
        }
        int length = in.readUnsignedByte();
        if (length > maxBytes || in.readableBytes() < length) {
            return Optional.empty();
        }
        byte[] bytes = new byte[length];
        in.readBytes(bytes);
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    /** Whether this hello is signed with {@code expected} over {@code nonce}; compares in constant time. */
    boolean signedBy(Credentials expected, byte[] nonce) {
        boolean sameKey = MessageDigest.isEqual(utf8(accessKey), utf8(expected.accessKey()));
        boolean sameSignature = signature.length == SIGNATURE_SIZE
                && MessageDigest.isEqual(signature, sign(expected.secretKey(), nonce, signedPart()));
        return sameKey & sameSignature;
    }

    /** The body up to the signature, as written: version, brokerId, name, access key. */
    private byte[] signedPart() {
        byte[] name = utf8(brokerName);
        byte[] key = utf8(accessKey);
        ByteBuf out = Unpooled.buffer(1 + 8 + 1 + name.length + 1 + key.length);
        out.writeByte(HaGreeting.VERSION).writeLong(brokerId).writeByte(name.length).writeBytes(name)
                .writeByte(key.length).writeBytes(key);
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        return bytes;
    }

    private static byte[] sign(String secretKey, byte[] nonce, byte[] signedPart) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(utf8(secretKey), ALGORITHM));
            mac.update(LABEL);
            mac.update(nonce);
            return mac.doFinal(signedPart);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no " + ALGORITHM, e); // never with the key in the message
        }
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "HaHello[brokerId=" + brokerId + ", brokerName=" + brokerName + ", accessKey=" + accessKey
                + ", signed=" + (signature.length > 0) + "]";
    }
}
