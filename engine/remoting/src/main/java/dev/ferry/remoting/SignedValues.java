package dev.ferry.remoting;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderCodec;
import dev.ferry.remoting.protocol.HeaderFieldSink;
import java.util.Arrays;
import java.util.Map;

/**
 * One thread's reader of what a request signature covers: the values of the covered fields, in the order of their
 * names. A typed header's fields are read in name order through its codec and merged with the explicit fields: no map
 * of the header is built, and no number is formatted into a string of its own.
 */
final class SignedValues {
    private final HeaderValues headerValues = new HeaderValues();
    private String[] names = new String[8];

    /**
     * Appends to {@code values} the covered field values of {@code request} with field {@code addedName} set to
     * {@code addedValue} (a field of that name is replaced; {@code null}: nothing added).
     */
    void append(RemotingCommand request, String addedName, String addedValue, StringBuilder values) {
        boolean legacy = request.version() <= RequestSignature.UNSIGNED_UNIQUE_KEY_UP_TO_VERSION
                && !request.isResponse();
        Map<String, String> explicit = request.explicitExtFields();
        int count = explicitNames(explicit, addedName, legacy);
        try {
            HeaderCodec<?> codec = headerValues.capture(request.typedHeader());
            int components = codec == null ? 0 : codec.size();
            int rank = 0;
            int next = 0;
            while (true) {
                int index = -1;
                for (; rank < components; rank++) {
                    int candidate = codec.indexInNameOrder(rank);
                    String name = codec.wireName(candidate);
                    if (headerValues.has(candidate) && RequestSignature.covers(name, legacy)
                            && !name.equals(addedName)) {
                        index = candidate;
                        break;
                    }
                }
                String explicitName = next < count ? names[next] : null;
                if (index < 0 && explicitName == null) {
                    return;
                }
                // a typed header's fields and the explicit ones never share a name
                if (explicitName == null || index >= 0 && codec.wireName(index).compareTo(explicitName) < 0) {
                    headerValues.appendTo(index, values);
                    rank++;
                } else {
                    values.append(explicitName.equals(addedName) ? addedValue : explicit.get(explicitName));
                    next++;
                }
            }
        } finally {
            headerValues.clear();
            Arrays.fill(names, 0, count, null);
        }
    }

    /** Fills {@link #names} with the covered explicit field names and {@code addedName}, sorted; their count. */
    private int explicitNames(Map<String, String> explicit, String addedName, boolean legacy) {
        int size = explicit.size() + 1;
        if (names.length < size) {
            names = new String[Math.max(size, names.length * 2)];
        }
        int count = 0;
        for (String name : explicit.keySet()) {
            if (RequestSignature.covers(name, legacy) && !name.equals(addedName)) {
                names[count++] = name;
            }
        }
        if (addedName != null && RequestSignature.covers(addedName, legacy)) {
            names[count++] = addedName;
        }
        Arrays.sort(names, 0, count);
        return count;
    }

    /** A typed header's field values by component index, as its codec hands them over. */
    private static final class HeaderValues implements HeaderFieldSink {
        private static final byte ABSENT = 0;
        private static final byte TEXT = 1;
        private static final byte NUMBER = 2;
        private static final byte TRUE = 3;
        private static final byte FALSE = 4;
        private byte[] kinds = new byte[32];
        private String[] texts = new String[32];
        private long[] numbers = new long[32];
        private int size;

        /** Takes {@code header}'s values; its codec, or {@code null} without a header. */
        @SuppressWarnings({"unchecked", "rawtypes"})
        HeaderCodec<?> capture(CommandHeader header) {
            if (header == null) {
                return null;
            }
            HeaderCodec codec = HeaderCodec.of((Class) header.getClass());
            if (kinds.length < codec.size()) {
                kinds = new byte[codec.size()];
                texts = new String[codec.size()];
                numbers = new long[codec.size()];
            }
            size = codec.size();
            codec.write((Record) header, this);
            return codec;
        }

        boolean has(int index) {
            return kinds[index] != ABSENT;
        }

        void appendTo(int index, StringBuilder out) {
            switch (kinds[index]) {
                case TEXT -> out.append(texts[index]);
                case NUMBER -> out.append(numbers[index]);
                case TRUE -> out.append(true);
                case FALSE -> out.append(false);
                default -> throw new IllegalStateException("no value at " + index);
            }
        }

        /** Forgets the values, so a thread keeps no request's text. */
        void clear() {
            Arrays.fill(kinds, 0, size, ABSENT);
            Arrays.fill(texts, 0, size, null);
            size = 0;
        }

        @Override
        public void string(int index, String value) {
            kinds[index] = TEXT;
            texts[index] = value;
        }

        @Override
        public void number(int index, long value) {
            kinds[index] = NUMBER;
            numbers[index] = value;
        }

        @Override
        public void bool(int index, boolean value) {
            kinds[index] = value ? TRUE : FALSE;
        }
    }
}
