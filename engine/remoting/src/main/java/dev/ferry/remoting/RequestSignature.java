package dev.ferry.remoting;

import dev.ferry.remoting.protocol.header.QueryMessageRequestHeader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * RocketMQ's request signature, as its {@code AclClientRPCHook} makes it and ACL brokers check it: an HMAC-SHA1, keyed
 * with the user's secret, over the values of every extension field but the signature itself, in the order of their
 * names, followed by the body; Base64 in the {@value #SIGNATURE} field, the user in {@value #ACCESS_KEY}.
 */
public final class RequestSignature {
    public static final String ACCESS_KEY = "AccessKey";
    public static final String SIGNATURE = "Signature";
    public static final String SECURITY_TOKEN = "SecurityToken";
    /** Clients of version 4.9.3 and before (399) do not sign this field of message queries; their brokers skip it. */
    static final int UNSIGNED_UNIQUE_KEY_UP_TO_VERSION = 399;
    private static final String ALGORITHM = "HmacSHA1";

    private RequestSignature() {
    }

    /** {@code request} with its access key and signature added. */
    public static RemotingCommand sign(RemotingCommand request, Credentials credentials) {
        // signed as the command with the key would be, without building that command (or a map of its header)
        String signature = signature(request, ACCESS_KEY, credentials.accessKey(), credentials.secretKey());
        return request.toBuilder().extField(ACCESS_KEY, credentials.accessKey()).extField(SIGNATURE, signature)
                .build();
    }

    /**
     * The Base64 HMAC-SHA1, under {@code secret}, of what the signature covers: the field values in name order (all
     * but the signature), then the body; fed to the MAC piecewise, without copying the body.
     */
    static String signature(RemotingCommand request, String secret) {
        return signature(request, null, null, secret);
    }

    /** As {@link #signature(RemotingCommand, String)} for {@code request} with field {@code addedName} set. */
    private static String signature(RemotingCommand request, String addedName, String addedValue, String secret) {
        Signer signer = SIGNERS.get();
        Mac mac = signer.keyed(secret);
        // the values are encoded as one string, as the signer does: a value may end inside a character that the
        // next one completes
        StringBuilder values = signer.values();
        signer.signedValues.append(request, addedName, addedValue, values);
        mac.update(values.toString().getBytes(StandardCharsets.UTF_8));
        List<ByteBuffer> parts = request.bodyParts();
        if (parts != null) {
            for (ByteBuffer part : parts) {
                mac.update(part.duplicate());
            }
        } else {
            mac.update(request.body());
        }
        return Base64.getEncoder().encodeToString(mac.doFinal());
    }

    /** Whether {@code request} carries the signature {@code secret} makes, compared in constant time. */
    public static boolean verify(RemotingCommand request, String secret) {
        String given = request.extField(SIGNATURE);
        if (given == null) {
            return false;
        }
        String expected = signature(request, secret);
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                given.getBytes(StandardCharsets.UTF_8));
    }

    /** Whether the signature covers field {@code name} of a request whose fields are read the legacy way or not. */
    static boolean covers(String name, boolean legacy) {
        return !name.equals(SIGNATURE) && !(legacy && name.equals(QueryMessageRequestHeader.UNIQUE_KEY_QUERY));
    }

    private static final ThreadLocal<Signer> SIGNERS = ThreadLocal.withInitial(Signer::new);

    /**
     * One thread's MAC and text buffer. Looking a MAC up costs more than keying it, and keying it more than reusing
     * it: a thread that checks one user's requests keys it once ({@link Mac#doFinal} leaves it keyed and reset).
     */
    private static final class Signer {
        /** A buffer grown past this by one long header is not kept. */
        private static final int KEPT_CAPACITY = 4096;
        private final Mac mac;
        private String keyedWith;
        private StringBuilder values = new StringBuilder(256);
        private final SignedValues signedValues = new SignedValues();

        Signer() {
            try {
                mac = Mac.getInstance(ALGORITHM);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("the JDK has no " + ALGORITHM, e);
            }
        }

        Mac keyed(String secret) {
            if (!secret.equals(keyedWith)) {
                try {
                    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
                } catch (GeneralSecurityException e) {
                    keyedWith = null;
                    throw new IllegalStateException("cannot key " + ALGORITHM, e);
                }
                keyedWith = secret;
            } else {
                mac.reset(); // a use that failed half-way must not leave its bytes in the next signature
            }
            return mac;
        }

        StringBuilder values() {
            if (values.capacity() > KEPT_CAPACITY) {
                values = new StringBuilder(256);
            }
            values.setLength(0);
            return values;
        }
    }
}
