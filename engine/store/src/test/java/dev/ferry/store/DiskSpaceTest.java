package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskSpaceTest {
    /** 100 bytes, 30 of them in no file, 5 of those reserved for the superuser. */
    private static DiskSpace withReservedBlocks() {
        return new DiskSpace() {
            @Override
            public long totalBytes() {
                return 100;
            }

            @Override
            public long usableBytes() {
                return 25;
            }

            @Override
            public long freeBytes() {
                return 30;
            }
        };
    }

    @Test
    void shouldLeaveReservedBlocksOutOfTheUsedRatioAsApacheDoes() {
        // files hold 70 bytes; 25 more could be written: 70 / 95, not 1 - 25 / 100
        assertThat(withReservedBlocks().usedRatio()).isCloseTo(70.0 / 95, within(1e-9));
    }

    @Test
    void shouldCountWhatIsNotUsableAsUsedWhenNothingIsReserved() {
        assertThat(DiskSpace.of(100, () -> 40).usedRatio()).isCloseTo(0.6, within(1e-9));
    }

    @Test
    void shouldReadTheRealDisksFreeAndUsableSpace(@TempDir Path dir) throws Exception {
        DiskSpace disk = DiskSpace.of(dir);
        var store = Files.getFileStore(dir);
        long used = store.getTotalSpace() - store.getUnallocatedSpace();

        assertThat(disk.freeBytes()).isGreaterThanOrEqualTo(disk.usableBytes());
        assertThat(disk.usedRatio()).isCloseTo((double) used / (used + store.getUsableSpace()), within(0.01));
    }
}
