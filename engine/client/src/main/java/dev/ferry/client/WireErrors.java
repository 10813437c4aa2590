package dev.ferry.client;

import dev.ferry.api.BrokerException;
import dev.ferry.api.FerryException;
import dev.ferry.api.RetriableException;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.protocol.ResponseCode;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The one place where wire response codes and remoting failures become {@link FerryException}s. */
final class WireErrors {
    /** Codes after which the same request may succeed on another attempt or broker (RocketMQ's send retry set). */
    private static final Set<Integer> RETRIABLE = Set.of(ResponseCode.SYSTEM_ERROR, ResponseCode.SYSTEM_BUSY,
            ResponseCode.SERVICE_NOT_AVAILABLE, ResponseCode.TOPIC_NOT_EXIST, ResponseCode.NO_PERMISSION,
            ResponseCode.NO_BUYER_ID, ResponseCode.NOT_IN_CURRENT_UNIT, ResponseCode.GO_AWAY,
            ResponseCode.FLOW_CONTROL, ResponseCode.SUBSCRIPTION_NOT_LATEST);

    private WireErrors() {
    }

    /** The exception for an error response to a request described by {@code what}. */
    static BrokerException fromResponse(RemotingCommand response, String what) {
        return new BrokerException(response.code(), response.remark(), RETRIABLE.contains(response.code()), what);
    }

    /** Whether an error response code is worth another attempt. */
    static boolean isRetriable(int responseCode) {
        return RETRIABLE.contains(responseCode);
    }

    /** The exception for any failure of a request described by {@code what}. */
    static FerryException fromFailure(Throwable failure, String what) {
        Throwable cause = unwrap(failure);
        if (cause instanceof FerryException ferry) {
            return ferry;
        }
        if (cause instanceof RemotingException remoting) {
            return remoting.isRetriable() ? new RetriableException(what + ": " + remoting.getMessage(), remoting)
                    : new FerryException(what + ": " + remoting.getMessage(), remoting);
        }
        return new FerryException(what + ": " + cause, cause);
    }

    static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
