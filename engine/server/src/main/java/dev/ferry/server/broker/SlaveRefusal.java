package dev.ferry.server.broker;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;

/**
 * A slave's answer to what would write to its commit log, which only its master writes: Apache's slave answers sends
 * and send-backs SYSTEM_BUSY (clients then try another broker) and transaction ends SLAVE_NOT_AVAILABLE.
 */
final class SlaveRefusal implements RequestProcessor {
    static final int[] CODES = {RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_BATCH_MESSAGE,
        RequestCode.CONSUMER_SEND_MSG_BACK, RequestCode.END_TRANSACTION};

    private final String who;

    SlaveRefusal(BrokerConfig config) {
        this.who = config.brokerName() + " id " + config.brokerId();
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        if (request.code() == RequestCode.END_TRANSACTION) {
            return RemotingCommand.responseTo(request, ResponseCode.SLAVE_NOT_AVAILABLE)
                    .remark("broker " + who + " is a slave: end the transaction at its master").build();
        }
        return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_BUSY)
                .remark("[REJECTREQUEST]system busy, start flow control for a while: broker " + who
                        + " is a slave and takes no writes").build();
    }
}
