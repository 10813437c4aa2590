package dev.ferry.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockMarkerTest {
    @Test
    void shouldReadARunMarkerWithQuotedAndBareValuesAndFlags() {
        BlockMarker marker = BlockMarker.parse("<!-- run background expect=\"Ferry server ready\" timeout=90 -->")
                .orElseThrow();

        assertThat(marker.runs()).isTrue();
        assertThat(marker.background()).isTrue();
        assertThat(marker.expect()).contains("Ferry server ready");
        assertThat(marker.timeoutSeconds()).isEqualTo(90);
        assertThat(marker.exit()).isZero();
        assertThat(marker.runBy()).isEmpty();
    }

    @Test
    void shouldReadAnIllustrativeMarkerWithItsReason() {
        BlockMarker marker = BlockMarker.parse("<!-- illustrative: needs a second host -->").orElseThrow();

        assertThat(marker.runs()).isFalse();
        assertThat(marker.reason()).isEqualTo("needs a second host");
    }

    @Test
    void shouldTakeAnOrdinaryCommentForNoMarker() {
        assertThat(BlockMarker.parse("<!-- a note to editors -->")).isEmpty();
        assertThat(BlockMarker.parse("Run this:")).isEmpty();
    }

    @Test
    void shouldRefuseARunMarkerItCannotRead() {
        assertThatThrownBy(() -> BlockMarker.parse("<!-- run expect=\"unclosed -->"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldReplaceOnlyThePortsATestFixed(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("root"));
        try (DocShell shell = new DocShell(dir.resolve("root"), dir.resolve("scratch"), Map.of(9080, 19080))) {
            assertThat(shell.substituted("curl http://127.0.0.1:9080/orders; admin --namesrv 127.0.0.1:9876 "
                    + "--queues 8 --size 90801"))
                    .isEqualTo("curl http://127.0.0.1:19080/orders; admin --namesrv 127.0.0.1:9876 --queues 8 "
                            + "--size 90801");
        }
    }
}
