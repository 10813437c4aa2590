package dev.ferry.liberty.apps;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The message bodies each failing bean of the test application takes from now on ("the bug is fixed"). */
@ApplicationScoped
public class Healing {
    private final Set<String> healed = ConcurrentHashMap.newKeySet();

    public void heal(String bean, String body) {
        healed.add(bean + "/" + body);
    }

    public boolean healed(String bean, String body) {
        return healed.contains(bean + "/" + body);
    }
}
