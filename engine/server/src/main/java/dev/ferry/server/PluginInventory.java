package dev.ferry.server;

import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.MessageFilterProvider;
import dev.ferry.spi.OffsetStoreProvider;
import dev.ferry.spi.PluginException;
import dev.ferry.spi.PluginKind;
import dev.ferry.spi.PluginProvider;
import dev.ferry.spi.PluginRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The plugins a server found, by where they come from (its own class path, its plugin directory) and by kind, so
 * that an operator sees at start-up whether the jar they dropped in was picked up, and under which names.
 *
 * @param builtIn   names by kind label, found on the server's own class path
 * @param pluginDir the plugin directory, or {@code null} when none is configured
 * @param fromDir   names by kind label, found only through the plugin directory
 */
public record PluginInventory(Map<String, List<String>> builtIn, Path pluginDir, Map<String, List<String>> fromDir) {
    private static final List<PluginKind<? extends PluginProvider>> KINDS = List.of(MessageFilterProvider.KIND,
            AllocateStrategyProvider.KIND, OffsetStoreProvider.KIND);

    public PluginInventory {
        builtIn = Map.copyOf(builtIn);
        fromDir = Map.copyOf(fromDir);
    }

    /**
     * Looks every kind up in {@code own} and, when a plugin directory is given, in {@code withDir} (whose parent is
     * {@code own}): what only the latter sees came from the directory.
     */
    static PluginInventory of(ClassLoader own, ClassLoader withDir, Path pluginDir) {
        Map<String, List<String>> builtIn = new LinkedHashMap<>();
        Map<String, List<String>> fromDir = new LinkedHashMap<>();
        for (PluginKind<? extends PluginProvider> kind : KINDS) {
            List<String> ownNames = names(kind, own);
            builtIn.put(kind.label(), ownNames);
            if (withDir != null) {
                List<String> added = new ArrayList<>(names(kind, withDir));
                added.removeIf(name -> ownNames.stream().anyMatch(name::equalsIgnoreCase));
                fromDir.put(kind.label(), List.copyOf(added));
            }
        }
        return new PluginInventory(builtIn, pluginDir, fromDir);
    }

    /**
     * The names {@code loader} has of {@code kind}, sorted; a kind the broker does not use (strategies, offset
     * stores) must not stop its start, so a refusal to load them (two plugins of one name) is listed instead.
     */
    private static List<String> names(PluginKind<? extends PluginProvider> kind, ClassLoader loader) {
        try {
            return PluginRegistry.load(kind, loader).names().stream().sorted(String.CASE_INSENSITIVE_ORDER).toList();
        } catch (PluginException e) {
            return List.of("(not loaded: " + e.getMessage() + ")");
        }
    }

    /**
     * One line: {@code plugins built in: message filter [..]; allocate strategy [..]; offset store [..]; from DIR:
     * message filter [..]; ...}, or {@code from DIR: none} when the directory gave nothing.
     */
    public String describe() {
        StringBuilder line = new StringBuilder("Plugins built in: ").append(byKind(builtIn));
        if (pluginDir != null) {
            String added = byKind(fromDir);
            line.append("; from ").append(pluginDir.toAbsolutePath()).append(": ")
                    .append(added.isEmpty() ? "none" : added);
        }
        return line.toString();
    }

    private static String byKind(Map<String, List<String>> names) {
        StringJoiner kinds = new StringJoiner("; ");
        for (PluginKind<? extends PluginProvider> kind : KINDS) {
            List<String> found = names.getOrDefault(kind.label(), List.of());
            if (!found.isEmpty()) {
                kinds.add(kind.label() + " " + String.join(", ", found));
            }
        }
        return kinds.toString();
    }
}
