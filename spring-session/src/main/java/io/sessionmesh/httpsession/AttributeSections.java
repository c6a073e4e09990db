package io.sessionmesh.httpsession;

import io.sessionmesh.wire.transport.TransportLimits;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where an HttpSession attribute lives in a SessionMesh session: the rule of docs/http-session.md.
 *
 * <ul>
 *   <li>An attribute named {@code s.a}, where {@code s} is one of the listed {@link #sections() sections}, is the
 *       attribute {@code a} of the section {@code s}: the names the example service's sections use, so that an
 *       HttpSession application and a section-API service share one session.</li>
 *   <li>Any other attribute (Spring Security's context, flash maps, names without a listed prefix) is, under its
 *       whole name, an attribute of the {@link #defaultSection() default section} ({@value #DEFAULT_SECTION} unless
 *       configured).</li>
 *   <li>The session's own figures that the master does not answer to a client (its creation time and idle timeout
 *       as set through HttpSession) are attributes of the section {@value #META_SECTION}, which no attribute name
 *       reaches.</li>
 * </ul>
 *
 * A read of a found session fetches the default and meta sections in one call; a listed section is fetched when an
 * attribute of it is first asked for, and {@code getAttributeNames()} fetches every listed section not read yet, in
 * one call.
 */
public final class AttributeSections {
    /** The section of attributes no listed section claims. */
    public static final String DEFAULT_SECTION = "http";
    /** The section of the session's own figures (creation time, idle timeout); never an attribute's. */
    public static final String META_SECTION = "spring-session";

    private final String defaultSection;
    private final Set<String> sections;

    /** A place of one attribute: its section and its name there. */
    public record Place(String section, String attribute) {
    }

    /**
     * @param defaultSection the section of unclaimed attributes
     * @param sections       the sections that claim attributes named {@code section.attribute}
     * @throws IllegalArgumentException for a name breaking the section name rules, one equal to
     *     {@value #META_SECTION}, or a listed section with a dot (no attribute name can reach it)
     */
    public AttributeSections(String defaultSection, List<String> sections) {
        this.defaultSection = check(defaultSection);
        LinkedHashSet<String> listed = new LinkedHashSet<>();
        for (String s : sections) {
            if (s.indexOf('.') >= 0) { // place() takes the section from before an attribute name's first dot
                throw new IllegalArgumentException("section \"" + s + "\" has a dot, so it claims no attribute: an"
                        + " attribute is placed by the part of its name before the first dot");
            }
            listed.add(check(s));
        }
        listed.remove(defaultSection);
        this.sections = Collections.unmodifiableSet(listed);
    }

    static String check(String section) {
        TransportLimits.checkSectionName(section);
        if (section.indexOf(',') >= 0) { // the REST API lists the sections of a read with commas
            throw new IllegalArgumentException("section \"" + section + "\": a section read through a sidecar may not"
                    + " have a comma in its name");
        }
        if (META_SECTION.equals(section)) {
            throw new IllegalArgumentException("section \"" + META_SECTION + "\" holds the session's own figures; "
                    + "name another section for attributes");
        }
        return section;
    }

    public String defaultSection() {
        return defaultSection;
    }

    /** The listed sections, in order. */
    public Set<String> sections() {
        return sections;
    }

    /** Where an attribute of that name lives. */
    public Place place(String attributeName) {
        int dot = attributeName.indexOf('.');
        if (dot > 0 && dot < attributeName.length() - 1) {
            String section = attributeName.substring(0, dot);
            if (sections.contains(section)) {
                return new Place(section, attributeName.substring(dot + 1));
            }
        }
        return new Place(defaultSection, attributeName);
    }

    /** The HttpSession name of an attribute of a section: the inverse of {@link #place}. */
    public String attributeName(String section, String attribute) {
        return section.equals(defaultSection) ? attribute : section + "." + attribute;
    }

    /** The sections a found session reads at once: the default and the meta section. */
    List<String> firstRead() {
        return List.of(defaultSection, META_SECTION);
    }

    /** Every section that may hold attributes: the default, then the listed. */
    List<String> all() {
        List<String> all = new ArrayList<>(sections.size() + 1);
        all.add(defaultSection);
        all.addAll(sections);
        return all;
    }

    @Override
    public String toString() {
        return "AttributeSections[default=" + defaultSection + ", listed=" + sections + "]";
    }
}
