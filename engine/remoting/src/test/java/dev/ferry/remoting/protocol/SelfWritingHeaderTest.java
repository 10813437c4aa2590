package dev.ferry.remoting.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.protocol.header.PullMessageRequestHeader;
import dev.ferry.remoting.protocol.header.PullMessageResponseHeader;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeaderV2;
import dev.ferry.remoting.protocol.header.SendMessageResponseHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Headers that write themselves must write exactly what the generic readers would. */
class SelfWritingHeaderTest {
    private final Random random = new Random(7);

    /** Records every call, so order and kinds are compared too. */
    private static final class Recorder implements HeaderFieldSink {
        final List<String> calls = new ArrayList<>();

        @Override
        public void string(int index, String value) {
            calls.add(index + " s " + value);
        }

        @Override
        public void number(int index, long value) {
            calls.add(index + " n " + value);
        }

        @Override
        public void bool(int index, boolean value) {
            calls.add(index + " b " + value);
        }
    }

    private <T extends Record & CommandHeader> void assertSameAsGeneric(T header) {
        @SuppressWarnings("unchecked")
        HeaderCodec<T> codec = HeaderCodec.of((Class<T>) header.getClass());
        Recorder self = new Recorder();
        codec.write(header, self);
        Recorder generic = new Recorder();
        codec.writeComponents(header, generic);
        assertThat(self.calls).as(header.toString()).isEqualTo(generic.calls);
    }

    private String maybe(String value) {
        return random.nextBoolean() ? null : value + random.nextInt();
    }

    private Integer maybeInt() {
        return random.nextBoolean() ? null : random.nextInt();
    }

    private Boolean maybeBool() {
        return random.nextBoolean() ? null : random.nextBoolean();
    }

    @Test
    void shouldWriteTheSameFieldsAsTheGenericReaders() {
        for (int i = 0; i < 200; i++) {
            assertSameAsGeneric(new SendMessageRequestHeaderV2(maybe("pg"), maybe("t"), maybe("d"), random.nextInt(),
                    random.nextInt(), random.nextInt(), random.nextLong(), random.nextInt(), maybe("p"), maybeInt(),
                    maybeBool(), maybeInt(), maybeBool(), maybe("b")));
            assertSameAsGeneric(new SendMessageResponseHeader(maybe("id"), random.nextInt(), random.nextLong(),
                    maybe("tx"), maybe("batch")));
            assertSameAsGeneric(new PullMessageRequestHeader(maybe("cg"), maybe("t"), random.nextInt(),
                    random.nextLong(), random.nextInt(), random.nextInt(), random.nextLong(), random.nextLong(),
                    maybe("sub"), random.nextLong(), maybe("type"), maybeInt(), maybe("b")));
            assertSameAsGeneric(new PullMessageResponseHeader(random.nextLong(), random.nextLong(),
                    random.nextLong(), random.nextLong(), random.nextBoolean() ? null : random.nextLong(), maybeInt(),
                    maybeInt(), maybeInt()));
        }
    }
}
