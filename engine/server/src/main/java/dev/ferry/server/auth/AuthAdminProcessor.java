package dev.ferry.server.auth;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.RequestSignature;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.AclInfo;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.BodyFormatException;
import dev.ferry.remoting.protocol.body.UserInfo;
import dev.ferry.remoting.protocol.header.AclRequestHeader;
import dev.ferry.remoting.protocol.header.ListAclsRequestHeader;
import dev.ferry.remoting.protocol.header.ListUsersRequestHeader;
import dev.ferry.remoting.protocol.header.UserRequestHeader;
import java.util.List;
import java.util.Map;

/**
 * The requests behind mqadmin's user and ACL commands (AUTH_CREATE_USER .. AUTH_LIST_ACL), with Apache RocketMQ's
 * answers: what is absent is a success without a body, what the rules refuse is NO_PERMISSION with Apache's remark.
 * When authentication is on only a super user may call them (Apache lets normal users with a cluster policy manage
 * normal users; Ferry does not).
 */
public final class AuthAdminProcessor implements RequestProcessor {
    /** The codes this processor serves. */
    public static final int[] CODES = {RequestCode.AUTH_CREATE_USER, RequestCode.AUTH_UPDATE_USER,
        RequestCode.AUTH_DELETE_USER, RequestCode.AUTH_GET_USER, RequestCode.AUTH_LIST_USER,
        RequestCode.AUTH_CREATE_ACL, RequestCode.AUTH_UPDATE_ACL, RequestCode.AUTH_DELETE_ACL,
        RequestCode.AUTH_GET_ACL, RequestCode.AUTH_LIST_ACL};

    private final AuthMetadata metadata;
    private final BodyCodec json;
    private final boolean authentication;

    public AuthAdminProcessor(AuthMetadata metadata, BodyCodec json, boolean authentication) {
        this.metadata = metadata;
        this.json = json;
        this.authentication = authentication;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        if (authentication) {
            String caller = request.extField(RequestSignature.ACCESS_KEY);
            boolean isSuper = metadata.user(caller).map(AuthUser::isSuper).orElse(false);
            if (!isSuper) {
                throw AuthMetadata.refused("User:" + AuthBodies.clean(caller) + " is not a super user: only super "
                        + "users manage users and ACLs");
            }
        }
        try {
            return switch (request.code()) {
                case RequestCode.AUTH_CREATE_USER -> createUser(request);
                case RequestCode.AUTH_UPDATE_USER -> updateUser(request);
                case RequestCode.AUTH_DELETE_USER -> {
                    metadata.deleteUser(username(request));
                    yield ok(request, null);
                }
                case RequestCode.AUTH_GET_USER -> ok(request, metadata.user(username(request))
                        .map(AuthBodies::toInfo).orElse(null));
                case RequestCode.AUTH_LIST_USER -> listUsers(request);
                case RequestCode.AUTH_CREATE_ACL, RequestCode.AUTH_UPDATE_ACL -> putAcl(request);
                case RequestCode.AUTH_DELETE_ACL -> deleteAcl(request);
                case RequestCode.AUTH_GET_ACL -> getAcl(request);
                case RequestCode.AUTH_LIST_ACL -> listAcls(request);
                default -> throw new BadRequestException(ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                        "not an ACL request: " + request.code());
            };
        } catch (IllegalArgumentException e) {
            if (e instanceof BadRequestException bad) {
                throw bad;
            }
            throw AuthMetadata.refused(e.getMessage());
        }
    }

    private RemotingCommand createUser(RemotingCommand request) {
        String name = username(request);
        UserInfo info = userBody(request);
        AuthUser user = AuthBodies.fromInfo(new UserInfo(name, info.password(), info.userType(), info.userStatus()));
        metadata.createUser(user);
        return ok(request, null);
    }

    private RemotingCommand updateUser(RemotingCommand request) {
        String name = username(request);
        UserInfo info = userBody(request);
        UserType type = null;
        if (info.userType() != null && (type = UserType.parse(info.userType())) == null) {
            throw new IllegalArgumentException("The userType is illegal.");
        }
        UserStatus status = null;
        if (info.userStatus() != null && (status = UserStatus.parse(info.userStatus())) == null) {
            throw new IllegalArgumentException("The userStatus is illegal.");
        }
        metadata.updateUser(name, info.password(), type, status);
        return ok(request, null);
    }

    private RemotingCommand listUsers(RemotingCommand request) {
        List<UserInfo> users = metadata.users(request.header(ListUsersRequestHeader.class).filter()).stream()
                .map(AuthBodies::toInfo).toList();
        return ok(request, users.isEmpty() ? null : users);
    }

    private RemotingCommand putAcl(RemotingCommand request) {
        AclRequestHeader header = request.header(AclRequestHeader.class);
        AclInfo info = aclBody(request);
        String subject = info.subject() != null ? info.subject() : header.subject();
        String username = Acl.usernameOf(subject);
        if (username == null) {
            throw new IllegalArgumentException("The subject type is null.");
        }
        metadata.putAcl(username, AuthBodies.policies(info));
        return ok(request, null);
    }

    private RemotingCommand deleteAcl(RemotingCommand request) {
        AclRequestHeader header = request.header(AclRequestHeader.class);
        PolicyType type = header.policyType() == null || header.policyType().isBlank() ? PolicyType.CUSTOM
                : PolicyType.parse(header.policyType());
        if (type == null) {
            throw new IllegalArgumentException("The policy type is illegal.");
        }
        AclResource resource = header.resource() == null || header.resource().isBlank() ? null
                : AclResource.parse(header.resource());
        metadata.deleteAcl(Acl.usernameOf(header.subject()), type, resource);
        return ok(request, null);
    }

    private RemotingCommand getAcl(RemotingCommand request) {
        String username = Acl.usernameOf(request.header(AclRequestHeader.class).subject());
        if (username == null || metadata.user(username).isEmpty()) {
            throw AuthMetadata.refused("The subject is not exist.");
        }
        return ok(request, metadata.acl(username).map(AuthBodies::toInfo).orElse(null));
    }

    private RemotingCommand listAcls(RemotingCommand request) {
        ListAclsRequestHeader header = request.header(ListAclsRequestHeader.class);
        String subjectFilter = header.subjectFilter();
        String resourceFilter = header.resourceFilter();
        List<AclInfo> acls = metadata.acls().stream()
                .filter(acl -> blank(subjectFilter) || acl.subject().contains(subjectFilter))
                .map(acl -> blank(resourceFilter) ? acl : onlyResources(acl, resourceFilter))
                .filter(acl -> !acl.isEmpty())
                .map(AuthBodies::toInfo).toList();
        return ok(request, acls.isEmpty() ? null : acls);
    }

    private static Acl onlyResources(Acl acl, String filter) {
        Map<PolicyType, List<PolicyEntry>> kept = new java.util.EnumMap<>(PolicyType.class);
        acl.policies().forEach((type, entries) -> kept.put(type, entries.stream()
                .filter(e -> e.resource().key().contains(filter)).toList()));
        return new Acl(acl.username(), kept);
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    private static String username(RemotingCommand request) {
        String name = request.header(UserRequestHeader.class).username();
        if (blank(name)) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "The username is blank");
        }
        return name;
    }

    /** The user body; a malformed one is refused without echoing it, as it holds a password. */
    private UserInfo userBody(RemotingCommand request) {
        try {
            return json.decode(request.body(), UserInfo.class);
        } catch (BodyFormatException e) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "The body is not a UserInfo JSON object");
        }
    }

    private AclInfo aclBody(RemotingCommand request) {
        try {
            return json.decode(request.body(), AclInfo.class);
        } catch (BodyFormatException e) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "The body of acl is null or malformed: "
                    + e.getMessage());
        }
    }

    private RemotingCommand ok(RemotingCommand request, Object body) {
        RemotingCommand.Builder response = RemotingCommand.responseTo(request, ResponseCode.SUCCESS);
        if (body != null) {
            response.body(json.encode(body));
        }
        return response.build();
    }
}
