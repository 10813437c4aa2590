package dev.ferry.server.broker;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.EndTransactionRequestHeader;

/** END_TRANSACTION: a producer commits or rolls back a half message (oneway; the answer only shows in logs). */
final class EndTransactionProcessor implements RequestProcessor {
    private static final System.Logger LOG = System.getLogger(EndTransactionProcessor.class.getName());

    private final TransactionService transactions;

    EndTransactionProcessor(TransactionService transactions) {
        this.transactions = transactions;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        EndTransactionRequestHeader h = request.header(EndTransactionRequestHeader.class);
        TransactionService.Outcome outcome = TransactionService.outcome(h.commitOrRollback());
        String problem = transactions.end(h.commitLogOffset(), outcome);
        if (problem != null) {
            LOG.log(System.Logger.Level.INFO, "{0} of transaction {1} from group {2} not applied: {3}", outcome,
                    h.msgId(), h.producerGroup(), problem);
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR).remark(problem).build();
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }
}
