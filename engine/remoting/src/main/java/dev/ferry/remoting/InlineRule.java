package dev.ferry.remoting;

/**
 * Which requests of a code are processed on the event loop that read them rather than handed to the processor's
 * executor. The hand-off costs a thread wake-up each way (to the executor, and back to the event loop for the answer),
 * which for a short request is more than the work itself. Only requests whose processing is bounded and never blocks
 * may be inlined: the event loop serves every other request of its connections meanwhile.
 */
@FunctionalInterface
public interface InlineRule {
    /** Every request goes to the executor. */
    InlineRule NEVER = request -> false;

    /** Decides from the request alone, in a few field reads: no decoding, no lookup that could block. */
    boolean inline(RemotingCommand request);
}
