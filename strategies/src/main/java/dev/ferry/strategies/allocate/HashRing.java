package dev.ferry.strategies.allocate;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A consistent-hash ring of clients, built exactly like RocketMQ's {@code ConsistentHashRouter} with its
 * default MD5 hash, so Apache and Ferry consumers of one group pick the same owner for every queue.
 *
 * <p>Each client gets {@code virtualNodes} points keyed {@code "<clientId>-<i>"}; a key's owner is the
 * first point at or after the key's hash, wrapping round. A hash is the first four bytes of the MD5
 * digest of the UTF-8 key, big-endian, unsigned. On a hash collision the later point wins, as upstream.
 */
final class HashRing {

    private final NavigableMap<Long, String> points = new TreeMap<>();
    /** Not thread-safe, like the ring: one ring serves one allocation call. */
    private final MessageDigest md5 = md5();

    HashRing(List<String> clientIds, int virtualNodes) {
        for (String clientId : clientIds) {
            for (int i = 0; i < virtualNodes; i++) {
                points.put(hash(md5, clientId + "-" + i), clientId);
            }
        }
    }

    /**
     * @param key the key to place
     * @return the id of the client owning the key
     */
    String owner(String key) {
        Map.Entry<Long, String> point = points.ceilingEntry(hash(md5, key));
        return (point != null ? point : points.firstEntry()).getValue();
    }

    private static long hash(MessageDigest md5, String key) {
        md5.reset();
        byte[] digest = md5.digest(key.getBytes(StandardCharsets.UTF_8));
        long hash = 0;
        for (int i = 0; i < 4; i++) {
            hash = (hash << 8) | (digest[i] & 0xFF);
        }
        return hash;
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide MD5.
            throw new IllegalStateException("MD5 is not available", e);
        }
    }
}
