package dev.ferry.remoting;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
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
    private static final String UNIQUE_KEY_QUERY = "_UNIQUE_KEY_QUERY";
    private static final int UNSIGNED_UNIQUE_KEY_UP_TO_VERSION = 399;
    private static final String ALGORITHM = "HmacSHA1";

    private RequestSignature() {
    }

    /** {@code request} with its access key and signature added. */
    public static RemotingCommand sign(RemotingCommand request, Credentials credentials) {
        RemotingCommand withKey = request.toBuilder().extField(ACCESS_KEY, credentials.accessKey()).build();
        String signature = signature(content(withKey), credentials.secretKey());
        return withKey.toBuilder().extField(SIGNATURE, signature).build();
    }

    /** What the signature covers: the field values in name order, then the body. */
    public static byte[] content(RemotingCommand request) {
        Map<String, String> fields = new TreeMap<>(request.extFields());
        fields.remove(SIGNATURE);
        if (request.version() <= UNSIGNED_UNIQUE_KEY_UP_TO_VERSION && !request.isResponse()) {
            fields.remove(UNIQUE_KEY_QUERY);
        }
        StringBuilder values = new StringBuilder(256);
        for (String value : fields.values()) {
            values.append(value);
        }
        byte[] head = values.toString().getBytes(StandardCharsets.UTF_8);
        int bodyLength = request.bodyLength();
        if (bodyLength == 0) {
            return head;
        }
        byte[] content = new byte[head.length + bodyLength];
        System.arraycopy(head, 0, content, 0, head.length);
        System.arraycopy(request.body(), 0, content, head.length, bodyLength);
        return content;
    }

    /** The Base64 HMAC-SHA1 of {@code content} under {@code secret}. */
    public static String signature(byte[] content, String secret) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
            return Base64.getEncoder().encodeToString(mac.doFinal(content));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no " + ALGORITHM, e);
        }
    }

    /** Whether {@code request} carries the signature {@code secret} makes, compared in constant time. */
    public static boolean verify(RemotingCommand request, String secret) {
        String given = request.extField(SIGNATURE);
        if (given == null) {
            return false;
        }
        String expected = signature(content(request), secret);
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                given.getBytes(StandardCharsets.UTF_8));
    }
}
