package dev.ferry.server.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Source addresses of policy entries: an IPv4 or IPv6 address, or a CIDR range; literals only, never a lookup. */
final class AddressRanges {
    private AddressRanges() {
    }

    static boolean isValid(String range) {
        int slash = range.indexOf('/');
        byte[] address = literal(slash < 0 ? range : range.substring(0, slash));
        if (address == null) {
            return false;
        }
        if (slash < 0) {
            return true;
        }
        Integer bits = prefixLength(range.substring(slash + 1));
        return bits != null && bits <= address.length * 8;
    }

    /** Whether {@code ip} is the address {@code range} or lies in it. */
    static boolean contains(String range, String ip) {
        byte[] candidate = literal(ip);
        if (candidate == null) {
            return false;
        }
        int slash = range.indexOf('/');
        byte[] base = literal(slash < 0 ? range : range.substring(0, slash));
        if (base == null || base.length != candidate.length) {
            return false;
        }
        Integer bits = slash < 0 ? Integer.valueOf(base.length * 8) : prefixLength(range.substring(slash + 1));
        if (bits == null) {
            return false;
        }
        for (int i = 0; i < base.length; i++) {
            int remaining = bits - i * 8;
            if (remaining <= 0) {
                break;
            }
            int mask = remaining >= 8 ? 0xFF : (0xFF << (8 - remaining)) & 0xFF;
            if ((base[i] & mask) != (candidate[i] & mask)) {
                return false;
            }
        }
        return true;
    }

    private static Integer prefixLength(String text) {
        if (text.isEmpty() || text.length() > 3 || !text.chars().allMatch(Character::isDigit)) {
            return null;
        }
        return Integer.parseInt(text);
    }

    /** The bytes of an address literal, or {@code null}; a host name is never resolved. */
    static byte[] literal(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (text.indexOf(':') < 0) {
            return ipv4(text);
        }
        String bare = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        if (!bare.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
            return null;
        }
        try {
            return InetAddress.getByName(bare).getAddress(); // a literal with a colon: parsed, not looked up
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static byte[] ipv4(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)) {
                return null;
            }
            int value = Integer.parseInt(part);
            if (value > 255) {
                return null;
            }
            bytes[i] = (byte) value;
        }
        return bytes;
    }
}
