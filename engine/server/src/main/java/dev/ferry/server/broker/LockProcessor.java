package dev.ferry.server.broker;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.LockBatchRequestBody;
import dev.ferry.remoting.protocol.body.LockBatchResponseBody;

/** LOCK_BATCH_MQ and UNLOCK_BATCH_MQ: orderly consumers taking and giving up their queues. */
final class LockProcessor implements RequestProcessor {
    private final QueueLocks locks;
    private final BodyCodec json;

    LockProcessor(QueueLocks locks, BodyCodec json) {
        this.locks = locks;
        this.json = json;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        LockBatchRequestBody body = json.decode(request.body(), LockBatchRequestBody.class);
        if (request.code() == RequestCode.LOCK_BATCH_MQ) {
            LockBatchResponseBody locked = new LockBatchResponseBody(
                    locks.lock(body.consumerGroup(), body.clientId(), body.mqSet()));
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(json.encode(locked)).build();
        }
        locks.unlock(body.consumerGroup(), body.clientId(), body.mqSet());
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }
}
