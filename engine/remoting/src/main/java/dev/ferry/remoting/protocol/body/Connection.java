package dev.ferry.remoting.protocol.body;

/**
 * One client connection of a group, as consumer and producer connection lists show it.
 *
 * @param clientAddr the client's address as the broker sees it ({@code host:port})
 * @param language   the client's language code name ({@code JAVA}, ...)
 * @param version    the protocol version its requests carry
 */
public record Connection(String clientId, String clientAddr, String language, int version) {
}
