package dev.ferry.remoting.codec;

import java.nio.charset.StandardCharsets;

/**
 * Field names seen before, so that decoding the same few names over and over neither
 * allocates them again nor rehashes them. A racy cache of immutable strings: a lost update
 * only costs a fresh string.
 */
final class FieldNames {
    private static final int SLOTS = 512;
    private final String[] slots = new String[SLOTS];

    String get(byte[] data, int offset, int length) {
        if (length > 64) {
            return new String(data, offset, length, StandardCharsets.UTF_8);
        }
        int hash = 0;
        for (int i = 0; i < length; i++) {
            hash = 31 * hash + data[offset + i];
        }
        int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
        String cached = slots[slot];
        if (cached != null && sameAscii(cached, data, offset, length)) {
            return cached;
        }
        String name = new String(data, offset, length, StandardCharsets.UTF_8);
        slots[slot] = name;
        return name;
    }

    private static boolean sameAscii(String s, byte[] data, int offset, int length) {
        if (s.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            byte b = data[offset + i];
            if (b < 0 || s.charAt(i) != b) {
                return false;
            }
        }
        return true;
    }
}
