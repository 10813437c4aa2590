package dev.ferry.server.broker;

import dev.ferry.format.NameRules;
import dev.ferry.format.StoredMessageView;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.EndTransactionRequestHeader;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * END_TRANSACTION: a producer commits or rolls back a half message (oneway; the answer only shows in logs). The
 * producer group, the half message's queue offset and its commit-log offset must all match the stored half message,
 * as Apache checks them; a mismatch is answered SYSTEM_ERROR with Apache's remark and changes nothing. The send thread
 * it runs on never waits for the disk: the answer goes out once the decision is durable. The request may name any
 * topic or none: the half message found decides, through {@link MessageAccess}, whether its sender may decide it.
 */
final class EndTransactionProcessor implements RequestProcessor {
    private static final System.Logger LOG = System.getLogger(EndTransactionProcessor.class.getName());

    private final TransactionService transactions;
    private final MessageAccess access;

    EndTransactionProcessor(TransactionService transactions, MessageAccess access) {
        this.transactions = transactions;
        this.access = access;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        EndTransactionRequestHeader h = request.header(EndTransactionRequestHeader.class);
        TransactionService.Outcome outcome = TransactionService.outcome(h.commitOrRollback());
        EntryChecks.group("producerGroup", h.producerGroup());
        Optional<StoredMessageView> half = transactions.halfMessage(h.commitLogOffset(), h.tranStateTableOffset());
        if (half.isPresent()) { // else the service answers why there is none, as Apache does
            RemotingCommand refusal = access.refusal(context.channel(), request, half.get());
            if (refusal != null) {
                return refusal;
            }
        }
        CompletableFuture<String> problem = transactions.end(h.commitLogOffset(), h.tranStateTableOffset(),
                h.producerGroup(), outcome);
        return DeferredAnswer.when(problem, context, request, () -> answer(request, h, outcome, problem.join()));
    }

    private static RemotingCommand answer(RemotingCommand request, EndTransactionRequestHeader h,
                                          TransactionService.Outcome outcome, String problem) {
        if (problem != null) {
            // DEBUG: any client can send these, and the answer carries the reason
            LOG.log(System.Logger.Level.DEBUG, "{0} of transaction {1} from group {2} not applied: {3}", outcome,
                    NameRules.shown(h.msgId()), h.producerGroup(), problem);
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR).remark(problem).build();
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }
}
