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

package dev.lease.kotlin

import org.assertj.core.api.Assertions.assertThat
import org.jetbrains.kotlin.cli.common.ExitCode
import org.jetbrains.kotlin.cli.common.arguments.K2JVMCompilerArguments
import org.jetbrains.kotlin.cli.common.messages.CompilerMessageSeverity
import org.jetbrains.kotlin.cli.common.messages.CompilerMessageSourceLocation
import org.jetbrains.kotlin.cli.common.messages.MessageCollector
import org.jetbrains.kotlin.cli.jvm.K2JVMCompiler
import org.jetbrains.kotlin.config.Services
import org.junit.jupiter.api.DisplayName
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/**
 * Tests that every Kotlin snippet of the README and the guides (README.md and docs/\*.md at
 * the repository's root) compiles, with the Kotlin compiler of this build's Kotlin version,
 * against this module's test class path. Each block is a file of its own package, so two
 * blocks may declare the same class; a block marked `<!-- snippet: not compiled, because … -->`
 * on the line above its fence is left out (`DocumentationSnippetsTests` in
 * lease-autoconfigure lists the marks and compiles the Java snippets).
 *
 * @author Lease contributors
 */
class KotlinSnippetsTests {

	@Test
	@DisplayName("Every Kotlin snippet of the README and the guides compiles")
	fun everyKotlinSnippetCompiles(@TempDir work: Path) {
		val snippets = kotlinSnippets()
		assertThat(snippets).`as`("Kotlin snippets in README.md and docs/*.md").isNotEmpty()
		val files = snippets.mapIndexed { index, snippet ->
			val file = work.resolve("snippet$index/Snippet.kt")
			Files.createDirectories(file.parent)
			// the package on the first line, so the code's lines are counted from the second
			Files.writeString(file, "package snippet$index\n" + snippet.code)
			file.toString() to snippet
		}.toMap()
		val errors = mutableListOf<String>()
		val arguments = K2JVMCompilerArguments().apply {
			freeArgs = files.keys.toList()
			classpath = System.getProperty("java.class.path")
			destination = work.resolve("classes").toString()
			jvmTarget = "17"
			noStdlib = true
			noReflect = true
			disableDefaultScriptingPlugin = true
		}
		val exit = K2JVMCompiler().exec(Errors(files, errors), Services.EMPTY, arguments)
		assertThat(errors).`as`("compiler errors in the Kotlin snippets of README.md and docs/*.md").isEmpty()
		assertThat(exit).isEqualTo(ExitCode.OK)
	}

	private class Snippet(val page: String, val fenceLine: Int, val code: String)

	private class Errors(val files: Map<String, Snippet>, val errors: MutableList<String>) : MessageCollector {

		override fun clear() = errors.clear()

		override fun hasErrors() = errors.isNotEmpty()

		override fun report(severity: CompilerMessageSeverity, message: String,
				location: CompilerMessageSourceLocation?) {
			if (severity.isError) {
				val where = location?.let { at ->
					files[at.path]?.let { "${it.page}:${it.fenceLine + at.line - 1} (the block at line ${it.fenceLine})" }
						?: "${at.path}:${at.line}"
				} ?: "compiler"
				errors.add("$where: $message")
			}
		}

	}

	private companion object {

		val ROOT: Path = Path.of("").toAbsolutePath().parent

		val OPENING = Regex("^```kotlin\\s*$")

		val NOT_COMPILED = Regex("^<!-- snippet: not compiled, because \\S.*-->\\s*$")

		fun kotlinSnippets(): List<Snippet> {
			val pages = listOf(ROOT.resolve("README.md")) + Files.list(ROOT.resolve("docs")).use { docs ->
				docs.filter { it.toString().endsWith(".md") }.sorted().toList()
			}
			return pages.flatMap { page ->
				val lines = Files.readAllLines(page)
				lines.indices.filter { OPENING.matches(lines[it]) }
					.filterNot { it > 0 && NOT_COMPILED.matches(lines[it - 1]) }
					.map { opening ->
						val end = (opening + 1 until lines.size).first { lines[it].startsWith("```") }
						Snippet(ROOT.relativize(page).toString(), opening + 1,
								lines.subList(opening + 1, end).joinToString("\n", postfix = "\n"))
					}
			}
		}

	}

}
