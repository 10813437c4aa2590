package dev.ferry.remoting.internal;

import dev.ferry.remoting.RemotingCommand;

/**
 * A command just decoded, with the inbound-budget bytes its frame holds until it has been handled.
 *
 * @param command     the command
 * @param reservation released once the command is processed (a request) or handed over (a response)
 * @param answers     what the connection's answers hold until written
 */
public record InboundCommand(RemotingCommand command, InboundBudget.Reservation reservation,
                             OutboundBudget.Connection answers) {
}
