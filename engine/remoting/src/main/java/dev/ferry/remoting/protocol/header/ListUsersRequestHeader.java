package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;

/** AUTH_LIST_USER request: users whose name contains {@code filter}, or all. */
public record ListUsersRequestHeader(String filter) implements CommandHeader {
}
