package dev.ferry.server.broker;

/** One step of a {@link SendRoute}: decides where a message goes next, from the properties read once. */
@FunctionalInterface
interface SendStep {
    Routed apply(SendingMessage message);

    /**
     * What a step decided: go on to the next step with {@link #message}, stop there with it (its destination is
     * final), or refuse the send with an Apache response code and remark.
     */
    record Routed(SendingMessage message, boolean last, int refusalCode, String remark) {
        static Routed next(SendingMessage message) {
            return new Routed(message, false, 0, null);
        }

        static Routed last(SendingMessage message) {
            return new Routed(message, true, 0, null);
        }

        static Routed refused(int code, String remark) {
            return new Routed(null, true, code, remark);
        }

        boolean refused() {
            return remark != null;
        }
    }
}
