package dev.ferry.server.broker;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.protocol.ResponseCode;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The answer to a request that waits for the store: given at once when the store is done already (async flush),
 * otherwise sent through the request's context by whichever thread completes the future (the store's flush thread
 * under sync flush), so the processor's thread never waits.
 */
final class DeferredAnswer {
    private DeferredAnswer() {
    }

    /**
     * @return the answer when {@code ready} is complete, otherwise {@code null} (what a processor returns when it
     *         answers later): {@code answer} is then sent once {@code ready} completes, or SYSTEM_ERROR if it throws
     */
    static RemotingCommand when(CompletableFuture<?> ready, RequestContext context, RemotingCommand request,
                                Supplier<RemotingCommand> answer) {
        if (ready.isDone()) {
            return answer.get();
        }
        ready.whenComplete((done, error) -> {
            try {
                context.respond(answer.get());
            } catch (RuntimeException e) {
                context.respond(RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR)
                        .remark(String.valueOf(e)).build());
            }
        });
        return null;
    }
}
