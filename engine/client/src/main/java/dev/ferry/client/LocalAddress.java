package dev.ferry.client;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;

/** Finds the address a client reports as its own: the first site-local IPv4 address, else loopback. */
final class LocalAddress {
    private LocalAddress() {
    }

    static String find() {
        try {
            String fallback = null;
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback() || nic.isVirtual()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                        if (address.isSiteLocalAddress()) {
                            return address.getHostAddress();
                        }
                        fallback = fallback == null ? address.getHostAddress() : fallback;
                    }
                }
            }
            return fallback != null ? fallback : "127.0.0.1";
        } catch (SocketException e) {
            return "127.0.0.1";
        }
    }

    /** The 4 bytes of an IPv4 address in dotted form, or of 127.0.0.1 when it is not one. */
    static byte[] ipv4Bytes(String ip) {
        String[] parts = ip.split("\\.");
        byte[] bytes = {127, 0, 0, 1};
        if (parts.length == 4) {
            try {
                for (int i = 0; i < 4; i++) {
                    bytes[i] = (byte) Integer.parseInt(parts[i]);
                }
            } catch (NumberFormatException e) {
                return new byte[] {127, 0, 0, 1};
            }
        }
        return bytes;
    }
}
