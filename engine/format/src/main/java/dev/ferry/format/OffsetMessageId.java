package dev.ferry.format;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * The offset message id: store host address (4 or 16 bytes) + port (4) + commit-log offset (8), as upper-case hex (32
 * characters for IPv4, 56 for IPv6).
 *
 * @param storeHost      the store host written into the entry
 * @param physicalOffset the entry's commit-log offset
 */
public record OffsetMessageId(InetSocketAddress storeHost, long physicalOffset) {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();
    private static final int IPV4_ID_LENGTH = 32;
    private static final int IPV6_ID_LENGTH = 56;

    /** Encodes a store host and offset. */
    public static String encode(InetSocketAddress storeHost, long physicalOffset) {
        byte[] address = storeHost.getAddress().getAddress();
        ByteBuffer bytes = ByteBuffer.allocate(address.length + 12);
        bytes.put(address).putInt(storeHost.getPort()).putLong(physicalOffset);
        return HEX.formatHex(bytes.array());
    }

    /** Decodes an id; throws IllegalArgumentException naming the id when it is malformed. */
    public static OffsetMessageId decode(String id) {
        if (id.length() != IPV4_ID_LENGTH && id.length() != IPV6_ID_LENGTH) {
            throw new IllegalArgumentException("offset message id must have 32 or 56 hex characters: " + id);
        }
        ByteBuffer bytes;
        try {
            bytes = ByteBuffer.wrap(HEX.parseHex(id));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("offset message id is not hex: " + id, e);
        }
        byte[] address = new byte[id.length() == IPV4_ID_LENGTH ? 4 : 16];
        bytes.get(address);
        int port = bytes.getInt();
        try {
            return new OffsetMessageId(new InetSocketAddress(InetAddress.getByAddress(address), port), bytes.getLong());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("offset message id has a bad address: " + id, e);
        }
    }

    @Override
    public String toString() {
        return encode(storeHost, physicalOffset);
    }

    public static boolean isIpv4(InetSocketAddress host) {
        return host.getAddress() instanceof Inet4Address;
    }
}
