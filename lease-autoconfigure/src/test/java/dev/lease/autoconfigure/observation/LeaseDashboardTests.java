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

package dev.lease.autoconfigure.observation;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the Grafana dashboard in docs/grafana queries only meters of the starter's
 * catalogue, under the names Micrometer's Prometheus registry exports them.
 *
 * @author Lease contributors
 */
class LeaseDashboardTests {

	private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
			"offset", "bool", "and", "or", "unless", "inf", "nan");

	// What is not a metric name: strings, label matchers, ranges, the labels of a
	// grouping, and Grafana's variables.
	private static final Pattern NOT_A_METRIC = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|\\{[^\\}]*\\}|\\[[^\\]]*\\]"
			+ "|\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)|\\$\\{?\\w+}?");

	// An identifier that is not part of a number and is not a function called.
	private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.])[a-zA-Z_:][\\w:]*+(?!\\s*\\()");

	private static final Pattern VARIABLE_FUNCTION = Pattern
		.compile("\\s*(?:label_values\\((.+),\\s*\\w+\\s*\\)|query_result\\((.+)\\))\\s*");

	private final Set<String> catalogue = LeaseMeterCatalogue.prometheusNames(LeaseMeterCatalogue.all());

	@Test
	void everyMetricTheDashboardQueriesIsInTheCatalogue() {
		List<String> expressions = expressions();
		assertThat(expressions).isNotEmpty();
		assertThat(expressions)
			.allSatisfy((expression) -> assertThat(unknownMetrics(expression)).as(expression).isEmpty());
	}

	@Test
	void theDashboardShowsContentionHoldTimeTakesActiveGrantsOverrunsAndDurability() {
		Set<String> queried = new TreeSet<>();
		expressions().forEach((expression) -> queried.addAll(metrics(expression)));
		assertThat(queried).contains("lease_waiting", "lease_waiting_oldest_seconds", "lease_held_seconds_bucket",
				"lease_held_seconds_count", "lease_take_seconds_count", "lease_take_seconds_sum", "lease_active",
				"lease_overrun_total", "lease_host_durability");
	}

	@Test
	void aMetricOutsideTheCatalogueIsReported() {
		String madeUp = "sum by (lease_host) (rate(lease_taken_total{lease_host=~\"$host\"}[$__rate_interval]))"
				+ " / on (lease_host) sum by (lease_host) (rate(lease_take_seconds_count[5m]))";
		assertThat(metrics(madeUp)).containsExactly("lease_take_seconds_count", "lease_taken_total");
		assertThat(unknownMetrics(madeUp)).containsExactly("lease_taken_total");
	}

	@Test
	void everyMetricTheDashboardsVariablesQueryIsInTheCatalogue() {
		List<String> queries = variableQueries();
		assertThat(queries).isNotEmpty();
		assertThat(queries).allSatisfy((query) -> {
			Set<String> unknown = variableMetrics(query);
			unknown.removeAll(this.catalogue);
			assertThat(unknown).as(query).isEmpty();
		});
	}

	@Test
	void aVariableOverAMetricOutsideTheCatalogueIsReported() {
		assertThat(variableMetrics("label_values(lease_actives{lease_host=~\"r.*\"}, lease_host)"))
			.containsExactly("lease_actives");
		assertThat(variableMetrics("query_result(sum by (lease_host) (lease_waiting))"))
			.containsExactly("lease_waiting");
	}

	@Test
	void functionsNumbersAndLabelsAreNotTakenForMetrics() {
		String quantile = "histogram_quantile(0.99, sum by (le, lease_host, lease_outcome) "
				+ "(rate(lease_held_seconds_bucket{lease_host=~\"$host\", lease_outcome=\"released\"}[1m]))) > bool 1e3";
		assertThat(metrics(quantile)).containsExactly("lease_held_seconds_bucket");
	}

	private Set<String> unknownMetrics(String expression) {
		Set<String> unknown = metrics(expression);
		unknown.removeAll(this.catalogue);
		return unknown;
	}

	private static Set<String> metrics(String expression) {
		Matcher identifiers = IDENTIFIER.matcher(NOT_A_METRIC.matcher(expression).replaceAll(" "));
		Set<String> metrics = new TreeSet<>();
		while (identifiers.find()) {
			if (!KEYWORDS.contains(identifiers.group().toLowerCase())) {
				metrics.add(identifiers.group());
			}
		}
		return metrics;
	}

	// A variable's query is one of Grafana's functions, not PromQL: label_values(series,
	// label) and query_result(expression) read meters; any other form is read as PromQL,
	// so a variable that names no meter of ours (label_values(label)) is reported too.
	private static Set<String> variableMetrics(String query) {
		Matcher function = VARIABLE_FUNCTION.matcher(query);
		if (!function.matches()) {
			return metrics(query);
		}
		return metrics((function.group(1) != null) ? function.group(1) : function.group(2));
	}

	// Every query of the dashboard's variables, as Grafana's Prometheus data source
	// takes it: a text, or an object whose query is the text.
	private static List<String> variableQueries() {
		JsonNode variables = dashboard().path("templating").path("list");
		List<String> queries = new ArrayList<>();
		variables.forEach((variable) -> {
			if ("query".equals(variable.path("type").asString())) {
				JsonNode query = variable.path("query");
				queries.add((query.isObject() ? query.path("query") : query).asString());
				if (variable.has("definition")) {
					queries.add(variable.path("definition").asString());
				}
			}
		});
		return queries;
	}

	// Every PromQL expression of every panel's targets.
	private static List<String> expressions() {
		return dashboard().findValues("expr").stream().map(JsonNode::asString).toList();
	}

	private static JsonNode dashboard() {
		return JsonMapper.builder()
			.build()
			.readTree(LeaseMeterCatalogue.read(LeaseMeterCatalogue.ROOT.resolve("docs/grafana/lease-dashboard.json")));
	}

}
