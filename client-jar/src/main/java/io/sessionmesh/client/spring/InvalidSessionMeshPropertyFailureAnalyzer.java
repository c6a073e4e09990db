package io.sessionmesh.client.spring;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Spring Boot's report of an {@link InvalidSessionMeshPropertyException}, as it reports its own invalid configuration
 * properties: the description names the property, the value and where it was set; the action is the fix.
 *
 * <pre>
 * Description:
 *
 * Invalid value "com.example.*" in sessionmesh.allowed-packages (class path resource [application.properties] - 3:30):
 * it is a wildcard.
 *
 * Action:
 *
 * Update sessionmesh.allowed-packages: write com.example: a package includes those under it.
 * </pre>
 *
 * Registered in {@code META-INF/spring.factories}; Spring Boot passes the environment (null when the application
 * failed before it had one).
 */
class InvalidSessionMeshPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidSessionMeshPropertyException> {
    /** Indexed entries of a list property (YAML lists) looked through for the origin of a bad entry. */
    private static final int MAX_INDEX = 256;

    private final Environment environment;

    InvalidSessionMeshPropertyFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidSessionMeshPropertyException cause) {
        String description;
        String action;
        if (cause.value() == null) {
            description = cause.property() + " " + cause.problem() + ".";
            action = "Set " + cause.property() + ": " + cause.fix() + ".";
        } else {
            String origin = origin(cause.property(), cause.value());
            description = "Invalid value \"" + cause.value() + "\" in " + cause.property()
                    + (origin == null ? "" : " (" + origin + ")") + ": it " + cause.problem() + ".";
            action = "Update " + cause.property() + ": " + cause.fix() + ".";
        }
        return new FailureAnalysis(description, action, cause);
    }

    /** Where the value was set (a file and line, a system property), when the environment knows. */
    private String origin(String property, String value) {
        if (environment == null) {
            return null;
        }
        ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty whole = source.getConfigurationProperty(name);
            if (whole != null) {
                return whole.getOrigin() == null ? null : whole.getOrigin().toString();
            }
            for (int i = 0; i < MAX_INDEX; i++) {
                ConfigurationProperty entry = source.getConfigurationProperty(name.append("[" + i + "]"));
                if (entry == null) {
                    break;
                }
                if (value.equals(String.valueOf(entry.getValue()).strip()) && entry.getOrigin() != null) {
                    return entry.getOrigin().toString();
                }
            }
        }
        return null;
    }
}
