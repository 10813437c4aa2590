package dev.ferry.server.auth;

import dev.ferry.format.Clock;
import dev.ferry.format.LogPace;
import dev.ferry.format.StoredMessageView;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestGuard;
import dev.ferry.remoting.RequestSignature;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Authentication and authorization of every request, before its processor: the request must be signed by an enabled
 * user with its password (authentication), and that user's ACL must allow what the request does (authorization; a
 * super user may do everything). A refusal is answered NO_PERMISSION with RocketMQ's remark, which names the user and
 * the resource but never a password or a signature; the connection stays open, as Apache's broker keeps it.
 *
 * <p>A request that names a message only by its commit-log offset or id is checked twice: here, for what it names,
 * and by {@link #checkMessage} once its processor has found the message, for what the message is.
 */
public final class AccessGuard implements RequestGuard {
    private static final System.Logger LOG = System.getLogger(AccessGuard.class.getName());

    private final AuthMetadata metadata;
    private final RequestResources resources;
    private final boolean authentication;
    private final boolean authorization;
    private final AtomicLong refusals = new AtomicLong();
    /** Who signed the last request each connection sent, while authorization is on: whom half messages may go to. */
    private final Map<String, String> signers = new ConcurrentHashMap<>();
    private final LogPace refusalLog = LogPace.perSecond();
    private final Clock clock;

    /** @param clock what spaces the warnings of refusals */
    public AccessGuard(AuthMetadata metadata, RequestResources resources, boolean authentication,
                       boolean authorization, Clock clock) {
        this.metadata = metadata;
        this.clock = clock;
        this.resources = resources;
        this.authentication = authentication;
        this.authorization = authorization;
    }

    @Override
    public RemotingCommand check(RemoteChannel channel, RemotingCommand request) {
        String refusal = refusal(request, channel.remoteAddress());
        if (refusal != null) {
            return refuse(channel, request, refusal);
        }
        if (authorization) {
            String username = request.extField(RequestSignature.ACCESS_KEY);
            if (username != null && !username.equals(signers.get(channel.id()))) {
                signers.put(channel.id(), username);
            }
        }
        return null;
    }

    /**
     * Whether the broker may send {@code half}, a half message, to the producer connection {@code channel} for it to
     * decide (CHECK_TRANSACTION_STATE): only when the user who last signed on that connection may end the transaction
     * itself, Pub on its real topic. A connection that joined the producer group of another user's transactions gets
     * none of their messages.
     */
    public boolean mayDecide(RemoteChannel channel, StoredMessageView half) {
        return !authorization || authorizationRefusal(signers.get(channel.id()), resources.toDecide(half),
                channel.remoteAddress()) == null;
    }

    /** {@code channelId} closed: who signed on it is forgotten. */
    public void connectionClosed(String channelId) {
        signers.remove(channelId);
    }

    /**
     * Whether the user who sent {@code request}, which {@link #check} let through, may have {@code message}, the
     * message the request named by its offset or id ({@link RequestResources#ofMessage}). A processor asks once it has
     * found the message, before it answers with it or acts on it.
     *
     * @return {@code null} when the user may, else the NO_PERMISSION answer that refuses the request
     */
    public RemotingCommand checkMessage(RemoteChannel channel, RemotingCommand request, StoredMessageView message) {
        if (!authorization) {
            return null;
        }
        String refusal = authorizationRefusal(request.extField(RequestSignature.ACCESS_KEY),
                resources.ofMessage(request, message), channel.remoteAddress());
        return refusal == null ? null : refuse(channel, request, refusal);
    }

    private RemotingCommand refuse(RemoteChannel channel, RemotingCommand request, String refusal) {
        long count = refusals.incrementAndGet();
        if (refusalLog.passes(clock.nanos())) {
            // the code, not the request: its signature would let whoever reads the log replay it
            LOG.log(System.Logger.Level.WARNING, "refused {0} from {1}: {2} ({3} refusals since start)",
                    RequestCode.nameOf(request.code()), channel.remoteAddress(), refusal, count);
        }
        return RemotingCommand.responseTo(request, ResponseCode.NO_PERMISSION).remark(refusal).build();
    }

    /** @return {@code null} when the request may go on, else the remark of its refusal */
    String refusal(RemotingCommand request, SocketAddress from) {
        String username = request.extField(RequestSignature.ACCESS_KEY);
        if (authentication) {
            String failed = authenticationFailure(request, username);
            if (failed != null) {
                return failed;
            }
        }
        if (!authorization) {
            return null;
        }
        List<RequiredAccess> needed;
        try {
            needed = resources.of(request);
        } catch (IllegalArgumentException e) { // a missing field, an unreadable body
            return "parse authorization context error: " + e.getMessage();
        }
        return authorizationRefusal(username, needed, from);
    }

    /** @return {@code null} when {@code username} may have everything {@code needed}, else the remark why not */
    private String authorizationRefusal(String username, List<RequiredAccess> needed, SocketAddress from) {
        if (needed.isEmpty()) {
            return null;
        }
        if (username == null || username.isBlank()) {
            return "Authorization failed: the request names no user (AccessKey).";
        }
        AuthUser user = metadata.user(username).orElse(null);
        if (user == null) {
            return "User:" + AuthBodies.clean(username) + " not found.";
        }
        if (user.isSuper()) {
            return null;
        }
        Acl acl = metadata.acl(username).orElse(null);
        String sourceIp = sourceIp(from); // only a normal user's policies need it
        for (RequiredAccess access : needed) {
            String why = AccessPolicy.refusal(acl, access, sourceIp);
            if (why != null) {
                return "User:" + username + " has no permission to access " + access.key() + " from " + sourceIp
                        + ", " + why;
            }
        }
        return null;
    }

    private String authenticationFailure(RemotingCommand request, String username) {
        if (username == null || username.isBlank()) {
            return "username cannot be null.";
        }
        AuthUser user = metadata.user(username).orElse(null);
        if (user == null) {
            return "User:" + AuthBodies.clean(username) + " is not found.";
        }
        if (!user.isEnabled()) {
            return "User:" + username + " is disabled.";
        }
        if (!RequestSignature.verify(request, user.password())) {
            return "check signature failed.";
        }
        return null;
    }

    private static String sourceIp(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return String.valueOf(address);
    }

    /** Requests refused since start. */
    public long refusals() {
        return refusals.get();
    }
}
