package dev.ferry.client;

/** Told of each send and each message consumed, with how long it took: what client metrics are made of. */
interface ClientRecorder {
    /** Records nothing: the client without metrics. */
    ClientRecorder NONE = new ClientRecorder() {
        @Override
        public void sent(String topic, boolean success, long nanos) {
        }

        @Override
        public void consumed(String group, String topic, boolean success, long nanos) {
        }
    };

    /** A send (all its attempts) finished: stored, or failed. */
    void sent(String topic, boolean success, long nanos);

    /** A listener returned ({@code success}) or threw for one message. */
    void consumed(String group, String topic, boolean success, long nanos);
}
