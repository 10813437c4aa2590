package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;

/**
 * AUTH_CREATE_ACL, AUTH_UPDATE_ACL, AUTH_DELETE_ACL and AUTH_GET_ACL requests: the subject ({@code User:alice}); a
 * delete may name one resource (and the policy type it is in) to remove only that entry.
 */
public record AclRequestHeader(String subject, String policyType, String resource) implements CommandHeader {
}
