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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A type declared in a source file of the repository, read from its text: the formatter
 * indents every member by one tab, so a declaration's tabs are its depth of nesting.
 *
 * @param file the file, relative to the repository
 * @param line the line of the declaration, from 1
 * @param qualifiedName the package and the enclosing types, dot-separated
 * @param name the simple name
 * @param api whether it is a public type of the API
 * @author Lease contributors
 */
record TypeDeclaration(String file, int line, String qualifiedName, String name, boolean api) {

	private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);

	private static final Pattern DECLARATION = Pattern
		.compile("^(\\t*)((?:(?:public|protected|private|static|final|abstract|sealed|non-sealed|strictfp)\\s+)*)"
				+ "(class|interface|enum|record|@interface)\\s+([A-Z]\\w*)");

	/**
	 * Read the types a source file declares.
	 * @param file the file, relative to the repository, with forward slashes
	 * @param text the file's text
	 * @param kits the packages whose types are no API
	 * @param unpublished the modules that are never published
	 * @return the types, in the order they are declared
	 */
	static List<TypeDeclaration> read(String file, String text, Set<String> kits, Set<String> unpublished) {
		Matcher packageName = PACKAGE.matcher(text);
		String pkg = packageName.find() ? packageName.group(1) : "";
		boolean published = file.contains("/src/main/java/") && !unpublished.contains(file.split("/", 2)[0]);
		boolean apiPackage = published && !kits.contains(pkg);
		List<TypeDeclaration> types = new ArrayList<>();
		Deque<Enclosing> enclosing = new ArrayDeque<>();
		String[] lines = text.split("\n", -1);
		for (int i = 0; i < lines.length; i++) {
			Matcher declaration = DECLARATION.matcher(lines[i]);
			if (!declaration.find()) {
				continue;
			}
			int depth = declaration.group(1).length();
			while (!enclosing.isEmpty() && enclosing.peek().depth() >= depth) {
				enclosing.pop();
			}
			Enclosing outer = enclosing.peek();
			String modifiers = declaration.group(2);
			String kind = declaration.group(3);
			String name = declaration.group(4);
			// A member of an interface is public without saying so.
			boolean member = outer != null && outer.depth() == depth - 1;
			boolean visible = modifiers.contains("public") || (member && outer.iface());
			boolean api = apiPackage && visible && (outer == null || (member && outer.api()));
			String qualifiedName = ((outer != null) ? outer.qualifiedName() : pkg) + "." + name;
			types.add(new TypeDeclaration(file, i + 1, qualifiedName, name, api));
			enclosing.push(new Enclosing(depth, qualifiedName, kind.endsWith("interface"), api));
		}
		return types;
	}

	@Override
	public String toString() {
		return this.file + ":" + this.line + " " + this.qualifiedName;
	}

	private record Enclosing(int depth, String qualifiedName, boolean iface, boolean api) {

	}

}
