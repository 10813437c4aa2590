package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * RocketMQ's system names are spelled in one place, {@link SystemTopics} and {@link MessageProperties}: no other
 * main source file of any module writes one as a literal (benchmarks, which mimic Apache's clients, aside). Compiled
 * classes cannot show it, since the compiler copies string constants into their users, so the sources are read.
 */
class SystemNamesTest {
    /** Prefixes no literal elsewhere may start with. */
    private static final List<String> PREFIXES = List.of("%RETRY%", "%DLQ%", "RMQ_SYS_", "CID_RMQ_SYS_", "rmq_sys_");
    /** Apache's names that are plain words, yet mean only Apache's (other plain words may mean other things). */
    private static final List<String> WORDS = List.of(SystemTopics.DEFAULT_CLUSTER);
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent().getParent();

    @Test
    void shouldSpellEverySystemNameOnlyInTheFormat() throws IOException {
        List<String> names = names();
        assertThat(ROOT.resolve("engine/format/pom.xml")).as("the repository root, two levels above the module")
                .exists();
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            files.filter(SystemNamesTest::isOtherMainSource).forEach(file -> {
                String text = read(file);
                for (String name : names) {
                    if (text.contains('"' + name + '"')) {
                        found.add(ROOT.relativize(file) + " spells \"" + name + '"');
                    }
                }
                for (String prefix : PREFIXES) {
                    if (text.contains('"' + prefix)) {
                        found.add(ROOT.relativize(file) + " spells \"" + prefix + "...");
                    }
                }
            });
        }
        assertThat(found).as("use the constants of SystemTopics and MessageProperties").isEmpty();
    }

    /** The constants' values that are unmistakably RocketMQ's (a plain word such as DELAY may mean other things). */
    private static List<String> names() {
        List<String> names = new ArrayList<>(WORDS);
        for (Class<?> holder : List.of(SystemTopics.class, MessageProperties.class)) {
            for (Field field : holder.getDeclaredFields()) {
                if (field.getType() == String.class && Modifier.isStatic(field.getModifiers())
                        && Modifier.isPublic(field.getModifiers())) {
                    String value = value(field);
                    if (value.contains("_") || value.contains("%") || value.chars().anyMatch(Character::isDigit)) {
                        names.add(value);
                    }
                }
            }
        }
        assertThat(names).contains(SystemTopics.AUTO_CREATE_TOPIC, MessageProperties.UNIQ_KEY,
                MessageProperties.TRANSACTION_PREPARED, "DefaultCluster");
        return names;
    }

    private static boolean isOtherMainSource(Path file) {
        String path = ROOT.relativize(file).toString().replace('\\', '/');
        return path.endsWith(".java") && path.contains("src/main/java/") && !path.contains("/target/")
                && !path.startsWith("engine/benchmarks/") && !path.endsWith("format/SystemTopics.java")
                && !path.endsWith("format/MessageProperties.java");
    }

    private static String value(Field field) {
        try {
            return (String) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
