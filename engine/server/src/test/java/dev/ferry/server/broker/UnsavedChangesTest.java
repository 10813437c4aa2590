package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class UnsavedChangesTest {

    private final UnsavedChanges unsaved = new UnsavedChanges();
    private final AtomicInteger saves = new AtomicInteger();

    @Test
    void shouldSaveOnlyWhenAChangeWasRecorded() {
        unsaved.saveIfAny(saves::incrementAndGet);
        unsaved.record();
        unsaved.record();
        unsaved.saveIfAny(saves::incrementAndGet);
        unsaved.saveIfAny(saves::incrementAndGet);

        assertThat(saves).hasValue(1);
    }

    @Test
    void shouldSaveAgainNextRoundWhenASaveFails() {
        unsaved.record();

        assertThatThrownBy(() -> unsaved.saveIfAny(() -> {
            throw new UncheckedIOException(new IOException("disk full"));
        })).isInstanceOf(UncheckedIOException.class);
        unsaved.saveIfAny(saves::incrementAndGet);

        assertThat(saves).hasValue(1);
    }
}
