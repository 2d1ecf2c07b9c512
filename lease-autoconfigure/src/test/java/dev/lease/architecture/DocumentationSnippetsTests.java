/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.lease.architecture;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.io.TempDir;

import dev.lease.architecture.MarkdownSnippets.Snippet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that every Java snippet of the README and the guides compiles, against this
 * module's test class path: the starter's modules, Spring Boot, Spring Data Redis, JDBC,
 * and the peers a migration guide shows the code of (ShedLock, Spring Integration). The
 * Kotlin snippets are compiled by {@code KotlinSnippetsTests} in lease-kotlin.
 * <p>
 * A block with a top-level type is a compilation unit and compiles as it is. Any other
 * block is a fragment: its imports stay on top and the rest is wrapped in {@code class
 * Snippet { … }} when it starts like a member (an annotation, a modifier, a method's
 * signature), else in a method {@code void snippet() throws Exception { … }}. Each block
 * gets its own package, so two pages may both show a {@code Payouts}, and sees the
 * reader's own types ({@link #READER_TYPES}) unless it declares them itself. Lines are
 * kept, so an error is reported at its line on the page.
 *
 * @author Lease contributors
 */
class DocumentationSnippetsTests {

	// Each mark is a decision a reviewer took: raise this only with the mark's reason.
	private static final int MOST_NOT_COMPILED = 1;

	private static final Pattern TOP_LEVEL_TYPE = Pattern.compile(
			"^(?:(?:public|abstract|final|sealed|non-sealed|strictfp)\\s+)*(?:class|interface|record|enum|@interface)\\s+\\w+",
			Pattern.MULTILINE);

	private static final Pattern PUBLIC_TYPE = Pattern.compile(
			"^public\\s+(?:(?:abstract|final|sealed|non-sealed|strictfp)\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)",
			Pattern.MULTILINE);

	private static final Pattern MEMBER = Pattern.compile("^\\s*(?:@|(?:public|protected|private|static|final)\\s"
			+ "|[\\w<>\\[\\],.? ]+\\s+\\w+\\s*\\(.*\\)\\s*(?:throws\\s+[\\w.,\\s]+)?\\{\\s*$)");

	private static final String READER_PACKAGE = "snippets.reader";

	// The reader's own types that snippets use without declaring them: the shape the
	// snippets ask of them and nothing more.
	private static final Map<String, String> READER_TYPES = Map.of("Ledger", """
			public class Ledger {
				public Receipt pay(String accountId) { return new Receipt(); }
				public java.util.concurrent.CompletableFuture<Receipt> payAsync(String accountId) { return null; }
				public void settle(String orderId) { }
				public void sweep(String region) { }
			}
			""", "Orders", """
			public class Orders {
				public void settle(String orderId) { }
				public void report() { }
			}
			""", "Order", """
			public record Order(String id, String state) { }
			""", "Receipt", """
			public record Receipt() { }
			""", "NightlyReport", """
			public class NightlyReport {
				public void run() { }
			}
			""");

	@Test
	@DisplayName("Every Java snippet of the README and the guides compiles")
	void everyJavaSnippetCompiles(@TempDir Path classes, TestReporter reporter) throws Exception {
		Map<String, Snippet> units = new LinkedHashMap<>();
		List<JavaFileObject> sources = new ArrayList<>();
		READER_TYPES.forEach((name, code) -> sources.add(
				new Source(READER_PACKAGE.replace('.', '/') + "/" + name, "package " + READER_PACKAGE + ";\n" + code)));
		for (Snippet snippet : MarkdownSnippets.all()) {
			if (snippet.language().equals("java") && snippet.compiled()) {
				String pkg = "snippet" + units.size();
				units.put(pkg, snippet);
				sources.add(new Source(pkg + "/" + fileName(snippet.code()), unit(pkg, snippet.code())));
			}
		}
		assertThat(units).as("Java snippets found in README.md and docs/*.md").isNotEmpty();
		reporter.publishEntry("compiled", units.size() + " Java snippets");
		List<String> errors = compile(sources, classes, units);
		assertThat(errors).as("compiler errors in the snippets of README.md and docs/*.md").isEmpty();
	}

	@Test
	@DisplayName("A snippet is left uncompiled only rarely, with its reason in a mark directly above it")
	void snippetsNotCompiledAreMarkedWithTheirReason(TestReporter reporter) {
		List<String> notCompiled = MarkdownSnippets.all()
			.stream()
			.filter((snippet) -> !snippet.compiled())
			.map((snippet) -> snippet + ": " + snippet.notCompiledBecause())
			.toList();
		notCompiled.forEach((snippet) -> reporter.publishEntry("not compiled", snippet));
		assertThat(MarkdownSnippets.strayMarks()).as("marks not directly above a snippet, or without a reason")
			.isEmpty();
		assertThat(notCompiled).as("snippets not compiled").hasSizeLessThanOrEqualTo(MOST_NOT_COMPILED);
	}

	private static List<String> compile(List<JavaFileObject> sources, Path classes, Map<String, Snippet> units)
			throws Exception {
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
		List<String> options = List.of("--release", "17", "-proc:none", "-classpath",
				System.getProperty("java.class.path"), "-d", classes.toString());
		try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT,
				StandardCharsets.UTF_8)) {
			javac.getTask(null, files, diagnostics, options, null, sources).call();
		}
		List<String> errors = new ArrayList<>();
		for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
			if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
				String name = (diagnostic.getSource() != null) ? diagnostic.getSource().getName() : "";
				Snippet snippet = units.get(name.substring(1, Math.max(1, name.indexOf('/', 1))));
				String where = (snippet != null)
						? snippet.at(diagnostic.getLineNumber()) + " (the block at line " + snippet.fenceLine() + ")"
						: name + ":" + diagnostic.getLineNumber();
				errors.add(where + ": " + diagnostic.getMessage(Locale.ROOT));
			}
		}
		return errors;
	}

	// The snippet in its own package, seeing the reader's types, its lines where they
	// were.
	private static String unit(String pkg, String code) {
		String header = "package " + pkg + "; import " + READER_PACKAGE + ".*; ";
		// A file has one package: the snippet's own gives way to the one given here.
		String unpackaged = code.replaceFirst("(?m)^package [\\w.]+;", "");
		if (TOP_LEVEL_TYPE.matcher(unpackaged).find()) {
			return header + unpackaged;
		}
		List<String> lines = new ArrayList<>(unpackaged.lines().toList());
		int first = 0;
		while (first < lines.size() && (lines.get(first).isBlank() || lines.get(first).startsWith("import "))) {
			first++;
		}
		boolean member = first < lines.size() && MEMBER.matcher(lines.get(first)).find();
		String opening = member ? "class Snippet { " : "class Snippet { void snippet() throws Exception { ";
		if (first < lines.size()) {
			lines.set(first, opening + lines.get(first));
		}
		else {
			lines.add(opening);
		}
		return header + String.join("\n", lines) + "\n" + (member ? "}" : "} }") + "\n";
	}

	private static String fileName(String code) {
		Matcher type = PUBLIC_TYPE.matcher(code);
		return type.find() ? type.group(1) : "Snippet";
	}

	private static final class Source extends SimpleJavaFileObject {

		private final String code;

		Source(String path, String code) {
			super(URI.create("string:///" + path + Kind.SOURCE.extension), Kind.SOURCE);
			this.code = code;
		}

		@Override
		public CharSequence getCharContent(boolean ignoreEncodingErrors) {
			return this.code;
		}

	}

}
