package io.sessionmesh.httpsession;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.session.FlushMode;
import org.springframework.session.SaveMode;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code sessionmesh.http-session.*}: where HttpSession attributes live, and Spring Session's flush and save modes.
 * The idle timeout of new sessions is Spring Boot's {@code spring.session.timeout} (else
 * {@code server.servlet.session.timeout}, else 30 minutes), as for every Spring Session store. Each field's Javadoc is
 * its description in the configuration metadata (defaults the processor cannot see are in
 * additional-spring-configuration-metadata.json), from which docs/configuration.md lists them all.
 */
@ConfigurationProperties(prefix = "sessionmesh.http-session")
public class SessionMeshHttpSessionProperties {
    /** The section of attributes that no listed section claims. */
    private String defaultSection = AttributeSections.DEFAULT_SECTION;
    /**
     * Sections that claim the attributes named {@code <section>.<attribute>}, each stored as {@code <attribute>} of
     * that section and read only when an attribute of it is first asked for. Empty: every attribute in the default
     * section.
     */
    private List<String> sections = new ArrayList<>();
    /**
     * When changes are written: at the end of the request (ON_SAVE) or at every change (IMMEDIATE). Unset: Spring
     * Boot's {@code spring.session.redis.flush-mode} if the application still has it, else ON_SAVE.
     */
    private FlushMode flushMode;
    /**
     * What a save sends besides the attributes set or removed: nothing more (ON_SET_ATTRIBUTE), the attributes read
     * (ON_GET_ATTRIBUTE), or every attribute (ALWAYS). The client's own save-mode (ON_SET_OR_READ by default) also
     * sends a value read and changed in place. Unset: {@code spring.session.redis.save-mode} if the application still
     * has it, else ON_SET_ATTRIBUTE.
     */
    private SaveMode saveMode;
    /**
     * The request paths Spring Session's filter serves (servlet URL patterns). Spring MVC asks every request for its
     * session (flash attributes) and Spring Session looks the session up again when the request ends, so in a
     * service where only some pages use HttpSession, naming them here spares every other request those reads.
     */
    private List<String> urlPatterns = new ArrayList<>(List.of("/*"));

    public String getDefaultSection() {
        return defaultSection;
    }

    public void setDefaultSection(String defaultSection) {
        this.defaultSection = defaultSection;
    }

    public List<String> getSections() {
        return sections;
    }

    public void setSections(List<String> sections) {
        this.sections = sections;
    }

    public List<String> getUrlPatterns() {
        return urlPatterns;
    }

    public void setUrlPatterns(List<String> urlPatterns) {
        this.urlPatterns = urlPatterns;
    }

    public FlushMode getFlushMode() {
        return flushMode;
    }

    public void setFlushMode(FlushMode flushMode) {
        this.flushMode = flushMode;
    }

    public SaveMode getSaveMode() {
        return saveMode;
    }

    public void setSaveMode(SaveMode saveMode) {
        this.saveMode = saveMode;
    }
}
