package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;

/** AUTH_LIST_ACL request: subjects and resources containing the filters, or all. */
public record ListAclsRequestHeader(String subjectFilter, String resourceFilter) implements CommandHeader {
}
