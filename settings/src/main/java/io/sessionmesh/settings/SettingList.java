package io.sessionmesh.settings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A program's declared settings ({@link Setting}), in the order its {@code --help} and docs/configuration.md list
 * them. Each name appears once and every setting says what it means, or the list is refused when the program's class
 * is loaded, which any of its tests does.
 */
public final class SettingList {
    private final List<Setting<?>> settings;

    private SettingList(List<Setting<?>> settings) {
        Map<String, Setting<?>> byName = new LinkedHashMap<>();
        for (Setting<?> s : settings) {
            if (byName.put(s.name(), s) != null) {
                throw new IllegalStateException("setting " + s.name() + " is declared twice");
            }
            if (s.meaning().isBlank()) {
                throw new IllegalStateException("setting " + s.name() + " says nothing of what it means: give it means(...)");
            }
        }
        this.settings = List.copyOf(settings);
    }

    public static SettingList of(Setting<?>... settings) {
        return new SettingList(List.of(settings));
    }

    /** These settings, then {@code more}'s (a program that reads another part's settings, as the registry's). */
    public SettingList and(SettingList more) {
        List<Setting<?>> all = new ArrayList<>(settings);
        all.addAll(more.settings);
        return new SettingList(all);
    }

    /** These settings with {@code replacement} in place of the one of its name (another default, say). */
    public SettingList with(Setting<?> replacement) {
        List<Setting<?>> all = new ArrayList<>(settings);
        int i = names().indexOf(replacement.name());
        if (i < 0) {
            throw new IllegalArgumentException("no setting " + replacement.name() + " to replace");
        }
        all.set(i, replacement);
        return new SettingList(all);
    }

    public List<Setting<?>> settings() {
        return settings;
    }

    public List<String> names() {
        return settings.stream().map(Setting::name).toList();
    }

    /** The declaration of {@code name}, or null. */
    public Setting<?> get(String name) {
        return settings.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * For {@code --help}: every setting, those read only with another too, each with its default and what it accepts
     * ({@code "  lease  2s  duration 100ms..1m"}).
     */
    public String usage() {
        Map<String, String> defaults = new LinkedHashMap<>();
        Map<String, String> accepts = new LinkedHashMap<>();
        for (Setting<?> s : settings) {
            defaults.put(s.name(), s.shownDefault());
            accepts.put(s.name(), s.accepts() + (s.condition() == null ? "" : " (with " + s.condition().name() + ")"));
        }
        return Settings.usage(defaults, accepts);
    }
}
