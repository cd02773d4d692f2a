"""Requests, fronted alternatives and relative clauses read as the direct question (kmrag.nlp.rephrase).
Questions of our own (the seeds' and the demo's subjects), not of any dataset."""

from __future__ import annotations

import re

import pytest

from kmrag.nlp.rephrase import rephrase

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("asked, read", [
    # a search box's label, a request with "could you", "I'm curious", a choice asked with "whether A or B"
    ("Search: Lufthansa founder", "Who is the founder of Lufthansa?"),
    ("Could you tell me the nationality of the person who wrote Faust?", "What is the nationality of the writer of Faust?"),
    ("I'm curious whether Munich and Augsburg are in the same state.", "Are Munich and Augsburg in the same state?"),
    ("Could you tell me whether Metropolis or Nosferatu has the older director?",
     "Which has the older director, Metropolis or Nosferatu?"),
    ("Munich and Augsburg: same state?", "Are Munich and Augsburg in the same state?"),
    ("Metropolis and Nosferatu - same director?", "Do Metropolis and Nosferatu have the same director?"),
    ("Who took the helm of Lufthansa in 2017?", "Who took the helm of Lufthansa in 2017?"),
    ("In Munich or Augsburg, which museum is larger?", "In Munich or Augsburg, which museum is larger?"),
    ("Thinking about Metropolis and Nosferatu, which film came out first?",
     "Which film came out first, Metropolis or Nosferatu?"),
    ("Of the silent films Metropolis and Nosferatu, which came out first?",
     "Which came out first, Metropolis or Nosferatu?"),
    # family words and "helmed" said the way the analysis reads them; a title keeps its own words
    ("Where was Carsten Spohr's dad born?", "Where was Carsten Spohr's father born?"),
    ("Who helmed Metropolis?", "Who directed Metropolis?"),
    # "directed by the older person": the film whose director was born first (a verb with no doer: as asked)
    ("Which film was directed by the older person: Metropolis or Nosferatu?",
     "Which film has the director born first: Metropolis or Nosferatu?"),
    ("Which song was sung by the younger one, Yesterday or Help?", "Which song has the singer born later, Yesterday or Help?"),
    ("Which city was visited by the older man, Munich or Augsburg?", "Which city was visited by the older man, Munich or Augsburg?"),
    # a particle inside a name is no verb to invert ("dos" parsed as "do")
    ("Do you know if Nelson Pereira dos Santos and Carl Dreyer were both directors?",
     "Were Nelson Pereira dos Santos and Carl Dreyer both directors?"),
    # an initial's stop ends no statement: the dash does
    ("Carsten J. Spohr heads an airline - in what year was that airline founded?",
     "In what year was the airline that Carsten J. Spohr heads founded?"),
    ("Do you know if Spielberg directed Jaws?", "Did Spielberg direct Jaws?"),  # a verb between names is a verb
    ("Who would you be?", "Who would you be?"),
    # "Who would X be?" is "Who is X?"; "on his mother's side" says which grandparent
    ("Who would the founder of Lufthansa be?", "Who is the founder of Lufthansa?"),
    ("On her father's side, who was the grandmother of Clara Voss?", "Who was the mother of the father of Clara Voss?"),
    ("On his mother's side, who is the grandfather of Jan Novak?", "Who is the father of the mother of Jan Novak?"),
    ("Do you know if Fritz Lang and F. W. Murnau were citizens of the same country?",
     "Were Fritz Lang and F. W. Murnau from the same country?"),
    ("Who directed Mom and Dad Save the World?", "Who directed Mom and Dad Save the World?"),
    # requests around a yes / no question
    ("Tell me whether Munich Airport and Munich are in the same state.",
     "Are Munich Airport and Munich in the same state?"),
    ("I'd like to know if Lufthansa flies to Delhi.", "Does Lufthansa fly to Delhi?"),
    ("Please tell me whether Air India was founded before Lufthansa.", "Was Air India founded before Lufthansa?"),
    ("Is it true that Carsten Spohr and Tim Clark share a nationality?",
     "Do Carsten Spohr and Tim Clark have the same nationality?"),
    ("Could you tell me whether Delhi, India and Munich, Germany are in the same country?",
     "Are Delhi, India and Munich, Germany in the same country?"),
    # requests around a wh-question
    ("Tell me when Lufthansa was founded.", "When was Lufthansa founded?"),
    ("I want to know where Carsten Spohr was born.", "Where was Carsten Spohr born?"),
    ("Can you tell me how many employees Lufthansa has?", "How many employees does Lufthansa have?"),
    ("Tell me who runs Lufthansa.", "Who runs Lufthansa?"),
    ("Tell me which airline flies from Delhi to Munich.", "Which airline flies from Delhi to Munich?"),
    ("I wonder which airport Lufthansa uses in Delhi.", "Which airport does Lufthansa use in Delhi?"),
    ("Tell me what the capital of Bavaria is.", "What is the capital of Bavaria?"),
    # imperatives
    ("Give the year in which Lufthansa was founded.", "In what year was Lufthansa founded?"),
    ("State the city where the chief executive of Lufthansa was born.",
     "Where was the chief executive of Lufthansa born?"),
    ("Name the founding year of Air India.", "What is the founding year of Air India?"),
    ("Identify which of Lufthansa and Air India was founded first.",
     "Which was founded first, Lufthansa or Air India?"),
    ("Name the airline whose hub is older: Lufthansa or Air India.",
     "Which airline's hub is older, Lufthansa or Air India?"),
    # alternatives up front
    ("Between Lufthansa and Air India, which was founded earlier?",
     "Which was founded earlier, Lufthansa or Air India?"),
    ("Of Munich and Delhi, which city is larger?", "Which city is larger, Munich or Delhi?"),
    ("Lufthansa or Air India: the chief executive of which airline is younger?",
     "The chief executive of which airline is younger, Lufthansa or Air India?"),
    # a relative clause where a relational noun would do
    ("Where was the person who founded Lufthansa born?", "Where was the founder of Lufthansa born?"),
    ("When did whoever wrote the Self-RAG paper publish it?", "When did the writer of the Self-RAG paper publish it?"),
    ("On what date did the man who directed Metropolis die?", "When did the director of Metropolis die?"),
    ("In which year was Lufthansa founded?", "In what year was Lufthansa founded?"),
    # "same ... or not", "same ... for A and B", "A / B same ...", "did A come from the same country as B",
    # "hails from which", "directed by someone of what nationality", "compare A and B and tell me which ..."
    ("Munich and Augsburg: same state or not?", "Are Munich and Augsburg in the same state?"),
    ("Same country for Delhi and Munich?", "Are Delhi and Munich from the same country?"),
    ("Metropolis / Nosferatu same country of origin", "Are Metropolis and Nosferatu from the same country of origin?"),
    ("Did the person who directed Metropolis come from the same country as the one who directed Nosferatu?",
     "Are the director of Metropolis and the director of Nosferatu from the same country?"),
    ("The founder of Lufthansa hails from which country?", "Which country does the founder of Lufthansa come from?"),
    ("Metropolis was directed by someone of what nationality?", "What nationality is the director of Metropolis?"),
    ("Compare the directors of Metropolis and Nosferatu and tell me which film's director was born first.",
     "Which film's director was born first, Metropolis or Nosferatu?"),
    ("Same as before?", "Same as before?"),  # no two things compared: as asked
    # "number of X at Y", "did both A and B work as Xs", "... first name", "X was directed by whom"
    ("number of terminals at the airport where Lufthansa has its hub",
     "How many terminals are there at the airport where Lufthansa has its hub?"),
    ("Did both Fritz Lang and F. W. Murnau work as directors?", "Are Fritz Lang and F. W. Murnau both directors?"),
    ("Carsten Spohr father first name", "What is the first name of the father of Carsten Spohr?"),
    ("The 1927 film starring Brigitte Helm was directed by whom?", "Who directed the 1927 film starring Brigitte Helm?"),
    ("What is the number of terminals at Munich Airport?", "What is the number of terminals at Munich Airport?"),
])
def test_a_request_or_reordered_question_is_read_as_the_direct_question(asked: str, read: str) -> None:
    assert rephrase(asked) == read
    assert rephrase(read) == read  # idempotent


@pytest.mark.parametrize("question", [
    "What is the capital of Bavaria?",
    "Who is the chief executive of Lufthansa?",
    "Is Munich Airport located in Bavaria?",
    "Which airline was founded first, Lufthansa or Air India?",
    "Name three steps of naive RAG.",         # no article: left as asked
    "Give me a break.",
    "Tell me about Lufthansa.",                # no embedded question
    "How does Self-RAG decide when to retrieve?",
    "单跳检索的准确率是多少？",
])
def test_a_direct_question_or_one_no_rule_reads_comes_back_as_asked(question: str) -> None:
    assert rephrase(question) == question


@pytest.mark.parametrize("asked, read", [
    ("Were Metropolis and Nosferatu directed by people from the same country?",
     "Were the directors of Metropolis and Nosferatu from the same country?"),
    ("Was Faust written by someone born in Frankfurt?", "Was the writer of Faust born in Frankfurt?"),
    ("Metropolis was directed by a person born on what date?", "When was the director of Metropolis born?"),
    ("The Self-RAG paper was written by someone who died in which year?", "In what year did the writer of the Self-RAG paper die?"),
    ("Metropolis was directed by a man born in which city?", "Where was the director of Metropolis born?"),
    # a month asked stays a month (a date is not the answer, nor a year)
    ("The album was scheduled for release in what month?", "The album was scheduled for release in what month?"),
    ("In which month was the album released?", "In which month was the album released?"),
])
def test_the_doer_of_a_passive_is_the_relational_noun(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    ("Lufthansa was founded in what year?", "In what year was Lufthansa founded?"),
    ("Carsten Spohr was born where?", "Where was Carsten Spohr born?"),
    # a relative clause in the subject, a kind named with its region
    ("The person who founded it was born where?", "Where was the person who founded it born?"),
    ("The airline that Carsten Spohr runs was founded in which Bavarian city?",
     "Which Bavarian city was the airline that Carsten Spohr runs founded in?"),
    ("The chief executive of Lufthansa is who?", "Who is the chief executive of Lufthansa?"),
    ("The airline that flies from Delhi to Munich is based in which city?",
     "Which city is the airline that flies from Delhi to Munich based in?"),
    ("A 2000 km flight gets which compensation?", "Which compensation does a 2000 km flight get?"),
])
def test_a_wh_word_at_the_end_goes_to_the_front(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    ("Is the chief executive of Lufthansa of the same nationality as the chief executive of Air India?",
     "Are the chief executive of Lufthansa and the chief executive of Air India of the same nationality?"),
    ("Was Carsten Spohr born in the same country as Tim Clark?",
     "Were Carsten Spohr and Tim Clark born in the same country?"),
    ("Was Lufthansa founded in the same decade as Air India?", "Were Lufthansa and Air India founded in the same decade?"),
    ("Is Munich from the same state as Nuremberg?", "Are Munich and Nuremberg from the same state?"),
    ("Is the chief executive of Lufthansa the same nationality as the chief executive of Air India?",
     "Are the chief executive of Lufthansa and the chief executive of Air India of the same nationality?"),
])
def test_the_same_as_is_asked_of_both(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("question", [
    # seen in review: rewrites that would change the meaning
    "Between 1950 and 1960, who won the most titles?",
    "From Munich and Delhi, what is the distance?",
    "Did he win or lose, and what was the score?",
    "On which day of the week was he born?",
    "In what time zone is Munich?",
    "Do the US and Canada share a border?",
    "Do they share the same ideas?",
    "Who is the person who found the Dead Sea Scrolls?",
    "Who is the man who directed in Germany?",
    "Was the museum built by men or machines?",
    "Was the letter written by a man who was in prison?",
    "Was he born in the same year as his wife died?",
    "Is Munich from the same state as Nuremberg or Augsburg?",
    "Who is the one who played the lead?",
    "x or y, " * 400 + "who?",  # long: read as asked, at once
    "Which of the two airlines was founded first?",       # no names to put at the end
    "Lufthansa: is it the flag carrier of Germany?",      # one thing, nothing to compare
    "Is Munich the same city as it was in 1900?",         # a clause, not a second thing
    "Which of these passed the test, and when?",
])
def test_a_rewrite_that_would_change_the_meaning_is_not_made(question: str) -> None:
    assert rephrase(question) == question


@pytest.mark.parametrize("asked, read", [
    ("Tell me whether or not Metropolis is a silent film.", "Is Metropolis a silent film?"),
    ("Tell me how old Carsten Spohr is.", "How old is Carsten Spohr?"),
    ("Tell me whether The Beatles were British.", "Were The Beatles British?"),
    ("List the members of the band Creed.", "What are the members of the band Creed?"),
    ("Where do the people who own Lufthansa live?", "Where do the owners of Lufthansa live?"),
])
def test_names_articles_and_number_are_kept(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    ("Which of Lufthansa and Air India was founded later?", "Which was founded later, Lufthansa or Air India?"),
    ("Who of Carsten Spohr and Tim Clark was born first?", "Who was born first, Carsten Spohr or Tim Clark?"),
    ("Lufthansa and Air India: are they based in the same country?",
     "Are Lufthansa and Air India based in the same country?"),
    ("Lufthansa and Air India - are both of them flag carriers?", "Are both Lufthansa and Air India flag carriers?"),
    ("When did the founder of Lufthansa pass away?", "When did the founder of Lufthansa die?"),
    ("Whose chief executive passed away first, Lufthansa or Air India?",
     "Whose chief executive died first, Lufthansa or Air India?"),
    ("What's the birth date of the chief executive of Lufthansa?",
     "What is the date of birth of the chief executive of Lufthansa?"),
])
def test_other_common_forms_are_read_as_the_direct_question(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    ("Carsten Spohr wife death date", "When did the wife of Carsten Spohr die?"),
    ("Metropolis (1927 film) director place of death", "Where did the director of Metropolis (1927 film) die?"),
    ("Lufthansa founder", "Who is the founder of Lufthansa?"),
    ("Lufthansa's founder birth date", "When was the founder of Lufthansa born?"),
    ("Ada Byrne paternal grandmother", "Who is the mother of the father of Ada Byrne?"),
])
def test_a_search_box_query_is_read_as_the_question_it_stands_for(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("query", [
    "Munich Airport", "Air India flights to Munich", "Delhi to Munich distance", "The director died",
    "Lufthansa members list", "python list sort", "Lufthansa paternal",
])
def test_a_search_box_query_that_is_not_a_chain_of_people_is_left_as_it_is(query: str) -> None:
    assert rephrase(query) == query


def test_a_question_with_a_wh_word_inside_is_not_read_as_a_search_box_query() -> None:
    # "In what year ... born?" once became "When was In what year ... born?"
    asked = 'In what year was the pilot who flew "The Spirit of St. Louis" born?'
    assert "In what year" not in rephrase(asked).split(" ", 2)[-1]
    assert rephrase('In which city was the airline that flies to Munich founded?').count("which") <= 1


@pytest.mark.parametrize("asked, read", [
    # a chatty or labelled lead, a tag at the end, options listed after the question
    ("hey, quick one: which state is Munich Airport located in?", "Which state is Munich Airport located in?"),
    ("Quiz question: who founded Lufthansa?", "Who founded Lufthansa?"),
    ("Yes or no: are Munich and Augsburg in the same state?", "Are Munich and Augsburg in the same state?"),
    ("Munich and Augsburg are in the same state, right?", "Are Munich and Augsburg in the same state?"),
    ("Were Metropolis and Nosferatu made in the same country, by any chance?",
     "Were Metropolis and Nosferatu made in the same country?"),
    ("Is Munich in Bavaria or not?", "Is Munich in Bavaria?"),
    ("Which film's director was born first? (a) Metropolis (b) Nosferatu",
     "Which film's director was born first, Metropolis or Nosferatu?"),
    ("Which airline is older? A) Lufthansa B) Air India", "Which airline is older, Lufthansa or Air India?"),
    # words for "the same country", question words typed fast
    ("Were the directors of Metropolis and Nosferatu compatriots?",
     "Were the directors of Metropolis and Nosferatu from the same country?"),
    ("Do Lufthansa and Condor hail from the same country?", "Do Lufthansa and Condor come from the same country?"),
    ("Are Munich and Augsburg within a single state?", "Are Munich and Augsburg in the same state?"),
    ("Does the nationality of the director of Metropolis match that of the director of Nosferatu?",
     "Do the director of Metropolis and the director of Nosferatu have the same nationality?"),
    ("wich airline flies from Delhi to Munich?", "which airline flies from Delhi to Munich?"),
    # "I need ...", "Help me find ...", "Identify the <person> who ..."
    ("I need the birthplace of the founder of Lufthansa.", "What is the birthplace of the founder of Lufthansa?"),
    ("Help me find where the founder of Lufthansa was born.", "Where was the founder of Lufthansa born?"),
    ("Give me the date the founder of Lufthansa died.", "When did the founder of Lufthansa die?"),
    ("I need the year Lufthansa was founded.", "In what year was Lufthansa founded?"),
    ("Which airline's founder outlived the other's, Lufthansa or Air India?",
     "Which airline's founder died later, Lufthansa or Air India?"),
    ("Does Carsten Spohr's nationality match Campbell Wilson's?",
     "Do Carsten Spohr and Campbell Wilson have the same nationality?"),
    ("Yes or no — are Munich and Augsburg in the same state?", "Are Munich and Augsburg in the same state?"),
    ("When's the bday of the founder of Lufthansa?", "When was the founder of Lufthansa born?"),
    ("When is the founder of Lufthansa's birthday?", "When was the founder of Lufthansa born?"),
    ("Size of the airport where Lufthansa has its hub?", "How large is the airport where Lufthansa has its hub?"),
    ("Identify the player born in 1950 who played for Bayern Munich.",
     "Who is the player born in 1950 who played for Bayern Munich?"),
])
def test_chatty_leads_tags_options_and_typed_requests(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("question, name", [
    ("Lufthansa today: is it the flag carrier of Germany?", "Lufthansa"),   # a name before the colon is the topic
    ("Munich: which state is it in?", "Munich"),
    ("Ok Munich: which state is it in?", "Munich"),
])
def test_a_lead_that_names_something_is_kept(question: str, name: str) -> None:
    assert name in rephrase(question)


@pytest.mark.parametrize("asked, read", [
    # requests and asides people put around a question
    ("Remind me which state Munich Airport is in.", "Which state is Munich Airport in?"),
    ("I was wondering if Munich and Augsburg are both in Bavaria.", "Are Munich and Augsburg both in Bavaria?"),
    ("You wouldn't know if Lufthansa and Air India have the same founder, would you?",
     "Do Lufthansa and Air India have the same founder?"),
    ("Would you happen to know when Lufthansa was founded?", "When was Lufthansa founded?"),
    ("Does anyone know where Carsten Spohr was born?", "Where was Carsten Spohr born?"),
    ("Settle a bet for me: is Munich Airport in Bavaria?", "Is Munich Airport in Bavaria?"),
    ("For a geography assignment: which state is Munich in?", "Which state is Munich in?"),
    ("I forget — who founded Lufthansa?", "Who founded Lufthansa?"),
    ("So who founded Lufthansa?", "Who founded Lufthansa?"),
    ("Is Munich Airport in Bavaria, do you think?", "Is Munich Airport in Bavaria?"),
    # idioms and contractions
    ("When did the founder of Lufthansa breathe his last?", "When did the founder of Lufthansa die?"),
    ("Who did Carsten Spohr tie the knot with?", "Who did Carsten Spohr marry?"),
    ("Where'd Carsten Spohr study?", "Where did Carsten Spohr study?"),
    ("Whereabouts did the founder of Lufthansa die?", "Where did the founder of Lufthansa die?"),
    ("Who is the person behind the camera on Metropolis?", "Who is the director of Metropolis?"),
    ("Which film predates the other, Metropolis or Nosferatu?", "Which film came first, Metropolis or Nosferatu?"),
    # a cleft, a "there is", "the older of", a topic named first and its pronoun after
    ("When was it that Lufthansa was founded?", "When was Lufthansa founded?"),
    ("Is there a state where both Munich and Augsburg are located?", "Are Munich and Augsburg located in the same state?"),
    ("Who is the older of Carsten Spohr and Jürgen Weber?", "Who is older, Carsten Spohr or Jürgen Weber?"),
    ("You know the film Metropolis? When was its director born?", "When was the director of the film Metropolis born?"),
    ("Remember Lufthansa? Where is it based?", "Where is Lufthansa based?"),
    ("Metropolis and Nosferatu — do their directors come from the same country?",
     "Do the directors of Metropolis and Nosferatu come from the same country?"),
    # a blank to fill, two names set against each other
    ("Fill in the blank: the director of Metropolis is from ____.", "Where is the director of Metropolis from?"),
    ("Complete: Lufthansa was founded in the year ____.", "In what year was Lufthansa founded?"),
    ("Fill in the blank: Munich is the capital of ____.", "What is Munich the capital of?"),
    ("Is Munich in the same country as Augsburg", "Are Munich and Augsburg in the same country?"),  # no "?"
    ("Metropolis or Nosferatu, which film came first", "Which film came first, Metropolis or Nosferatu?"),
    ("Metropolis vs Nosferatu: film with the earlier-born director",
     "Which film with the earlier-born director, Metropolis or Nosferatu?"),
    ("Lufthansa versus Air India - which was founded first?", "Which was founded first, Lufthansa or Air India?"),
])
def test_asides_idioms_clefts_and_a_topic_named_first(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    # a statement with its question mark; options set apart by a slash and a dash
    ("Munich and Augsburg are located in the same state?", "Are Munich and Augsburg located in the same state?"),
    ("Lufthansa is based in Cologne?", "Is Lufthansa based in Cologne?"),
    ("Metropolis / Nosferatu — which film came out first?", "Which film came out first, Metropolis or Nosferatu?"),
    # a topic after what the asker did, or after a label, then its pronoun
    ("Just watched Metropolis — when was its director born?", "When was the director of Metropolis born?"),
    ("Film: Metropolis. Question: who was its director?", "Who was the director of Metropolis?"),
    ("The director of Metropolis — when was he born?", "When was the director of Metropolis born?"),
    # two names compared, or described by a relative clause, or contained in one place
    ("If you compare the founder of Lufthansa with the founder of Air India, are they from the same country?",
     "Are the founder of Lufthansa and the founder of Air India from the same country?"),
    ("Are Metropolis and Nosferatu two films whose directors come from the same country?",
     "Do the directors of Metropolis and Nosferatu come from the same country?"),
    ("Does the state that Munich is located in also contain Augsburg?",
     "Are Munich and Augsburg located in the same state?"),
    ("Do Carsten Spohr and Jürgen Weber share a home country?", "Do Carsten Spohr and Jürgen Weber have the same country?"),
    # idioms
    ("Who came out on top in the 2014 election?", "Who won the 2014 election?"),
    ("In what year did the founder of Lufthansa come into the world?", "In what year was the founder of Lufthansa born?"),
    ("In what year did the band get together?", "In what year was the band formed?"),
    ("What line of work is Carsten Spohr known for?", "What profession is Carsten Spohr known for?"),
    ("Where was whoever performed the song Metropolis born?", "Where was the performer of the song Metropolis born?"),
])
def test_statements_asked_topics_after_a_lead_and_more_idioms(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked", [
    "Metropolis and Nosferatu are both silent films.",  # no question mark: a statement
    "The capital of Australia is Sydney or Canberra?",  # options: not a yes / no
    "This Is Spinal Tap was directed by Rob Reiner?",  # two copulas, one of them a title's
    "Metropolis was released in 1927 and Nosferatu was released in 1922?",
    "Ok so my question is whether Paris is in France?",
    "Does the country that Munich is located in also have a coastline?",
    "Were Lennon and McCartney both musicians whose songs topped the charts?",
    "How did they get together?",
    "Did the band get together with Eno in 1980?",
])
def test_forms_that_only_look_like_the_new_ones_are_left_as_asked(asked: str) -> None:
    assert rephrase(asked) == asked


@pytest.mark.parametrize("asked, read", [
    ("Alien: Covenant — who directed it?", "Who directed Alien: Covenant?"),  # a title with a colon is no label
    ("Life is Beautiful — who directed it?", "Who directed Life is Beautiful?"),  # nor a title with a verb
    ("Mr. Q: who is he?", "Who is Mr. Q?"),
])
def test_a_topic_keeps_its_whole_name(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("question", [
    "Who is the brother of Carsten Spohr and Jürgen Weber?",  # not a comparison
    "You know Lufthansa? Its founder and his son both lived in Cologne?",  # two pronouns: which one is meant?
    "Is there a museum in Munich?",
    "____ founded Lufthansa.",  # a blank that opens the sentence: who or what?
    "Fill in the blanks: ____ founded ____ in 1953.",
    "Metropolis vs Nosferatu",
    "Lufthansa and Air India: their founders and their hubs?",  # two pronouns
    "Who directed Metropolis???",  # emphasis, not a blank
    "Who is ___?",  # asks already
    "Pride and Prejudice same year",  # a title with "and"; no country asked
])
def test_look_alikes_of_those_forms_stay_as_asked(question: str) -> None:
    assert rephrase(question) == question


def test_two_names_and_what_they_would_share_is_a_comparison() -> None:
    assert rephrase("Lufthansa and Air India same country") == "Are Lufthansa and Air India from the same country?"
    assert rephrase("Are Munich and Augsburg the same age?") == "Are Munich and Augsburg the same age?"


@pytest.mark.parametrize(("asked", "read"), [
    ("Kramer vs. Kramer: who directed it?", "Who directed Kramer vs. Kramer?"),  # one title, its pronoun
    ("Batman vs Superman: Dawn of Justice director", "Who is the director of Batman vs Superman: Dawn of Justice?"),
])
def test_a_title_with_vs_is_not_two_names_set_against_each_other(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    # a request with a noun phrase, not a wh-clause ("find out", "I'd love to know", "specify")
    ("Could you find out the birth date of Carsten Spohr's wife?", "What is the date of birth of Carsten Spohr's wife?"),
    ("I'd love to know the founding year of Air India.", "What is the founding year of Air India?"),
    ("Give the date of death of Carsten Spohr.", "What is the date of death of Carsten Spohr?"),
    # a kind of place asked by name stays that kind
    ("Specify the county where Munich Airport is located.", "Which county is Munich Airport located in?"),
    ("Name the state that borders Bavaria.", "Which state borders Bavaria?"),
    ("In which place did the founder of Lufthansa die?", "Where did the founder of Lufthansa die?"),
    # a pronoun's thing, whole, and what owns it in turn
    ("Carsten Spohr's father — what was his first name?", "What was the first name of Carsten Spohr's father?"),
    ("Metropolis: what is its director's birth date?", "What is the date of birth of the director of Metropolis?"),
    # "share an X with", a request between fronted alternatives and the question, a one-letter first word
    ("Does the director of Metropolis share a nationality with the director of Nosferatu?",
     "Do the director of Metropolis and the director of Nosferatu have the same nationality?"),
    ("Of the two films I Am A Camera and Metropolis, I'd like to know which one came out first.",
     "Which one came out first, I Am A Camera or Metropolis?"),
    # the wh-phrase a request opens keeps its modifiers; a name after a noun starts the clause
    ("Can you find out which German flag carrier airline flies from Delhi to Munich?",
     "Which German flag carrier airline flies from Delhi to Munich?"),
])
def test_noun_phrase_requests_place_kinds_possessives_and_shared_attributes(asked: str, read: str) -> None:
    assert rephrase(asked) == read
    assert rephrase(read) == read


@pytest.mark.parametrize("asked", [
    # the wh-word at the end belongs to a clause inside, not to the main verb: fronting it would change the question
    "Lufthansa is run by the man who was born in which year?",
    "Carsten Spohr is married to the daughter of a pilot who retired in what year?",
])
def test_a_wh_word_of_a_clause_inside_stays_at_the_end(asked: str) -> None:
    assert rephrase(asked) == asked


@pytest.mark.parametrize("asked, read", [
    # a statement that introduces a thing with "a", then a question about "that" thing or a pronoun for it
    ("Carsten Spohr was a pilot at an airline; in what year was that airline founded?",
     "In what year was the airline at which Carsten Spohr was a pilot founded?"),
    ("Carsten Spohr has a wife. When is her birthday?", "When was Carsten Spohr's wife born?"),
    ("Lufthansa is an airline. When was it founded?", "When was Lufthansa founded?"),
    ("Fritz Lang studied at a school in Vienna. In which district is one of that school's buildings?",
     "In which district is one of the buildings of the school in Vienna at which Fritz Lang studied?"),
    # the doer of a passive, then what is asked of it
    ("Metropolis was directed by someone who died when?", "When did the director of Metropolis die?"),
    ("Metropolis was directed by someone from which country?", "Which country is the director of Metropolis from?"),
    ("Autobahn was performed by a group formed in what year?",
     "In what year was the group by which Autobahn was performed formed?"),
    ("Metropolis was directed by someone who was knighted when?", "When was the director of Metropolis knighted?"),
    # a topic named first, with a comma
    ("For the film Metropolis, where did its director die?", "Where did the director of the film Metropolis die?"),
    ("Thinking about Carsten Spohr, where was his father born?", "Where was the father of Carsten Spohr born?"),
    # "which of the films A and B"
    ("Which of the films Metropolis and Nosferatu has the director who died later?",
     "Which has the director who died later, Metropolis or Nosferatu?"),
])
def test_statements_before_questions_doers_of_passives_and_comma_topics(asked: str, read: str) -> None:
    assert rephrase(asked) == read
    assert rephrase(read) == read


@pytest.mark.parametrize("asked", [
    "Carsten Spohr has a daughter. When was he born?",  # "he" is not the daughter
    "For a history assignment, when was Lufthansa founded?",  # a reason, not a topic with a pronoun
    "Lufthansa operates a daily flight. Where does it go?",  # "it" may be Lufthansa as well as the flight
    "Amazon was founded in a garage. Who founded it?",
    "For her work on radium, what prize did she receive?",  # her work is no topic
])
def test_a_pronoun_that_cannot_be_the_introduced_thing_is_left(asked: str) -> None:
    assert rephrase(asked) == asked


@pytest.mark.parametrize("asked, read", [
    # a search box's noun phrase, lower case, no question mark
    ("winner of the 2014 election in Bavaria", "What is the winner of the 2014 election in Bavaria?"),
    ('birth year of the singer who popularized "Autobahn"', 'What is the birth year of the singer who popularized "Autobahn"?'),
    ("number of passenger terminals at the airport where Lufthansa has its hub",
     "How many passenger terminals are there at the airport where Lufthansa has its hub?"),
])
def test_a_search_box_noun_phrase_is_asked(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked", ["Kings of Leon", "Members of the band released an album in 1990."])
def test_a_title_or_a_statement_is_not_a_noun_phrase_asked(asked: str) -> None:
    assert rephrase(asked) == asked


@pytest.mark.parametrize("asked, read", [
    ("Who is the paternal grandmother of Carsten Spohr?", "Who is the mother of the father of Carsten Spohr?"),
    ("Who was Carsten Spohr's maternal grandfather?", "Who was the father of the mother of Carsten Spohr?"),
    ("Who is the mother-in-law of Carsten Spohr?", "Who is the mother of the spouse of Carsten Spohr?"),
])
def test_kinship_is_the_two_relations_a_text_states_one_at_a_time(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    ("Metropolis and Nosferatu came from the same country?", "Did Metropolis and Nosferatu come from the same country?"),
    ("Think of Metropolis and Nosferatu. Are their directors of the same nationality?",
     "Are the directors of Metropolis and Nosferatu of the same nationality?"),
    ("Metropolis director birthplace.", "Where was the director of Metropolis born?"),
    ("I'm trying to find out when the founder of Lufthansa was born.", "When was the founder of Lufthansa born?"),
    ("In 1955, Lufthansa hired an Austrian pilot. When was that man born?",
     "When was the Austrian pilot that in 1955, Lufthansa hired born?"),
    ("Bisquick manufacturer headquarters state.", "In what state is the manufacturer of Bisquick headquartered?"),
    ("Looking for the league that Carsten Spohr's team played in.",
     "What is the league that Carsten Spohr's team played in?"),
    ("Metropolis and Nosferatu: name the film whose director died first.",
     "Which film's director died first, Metropolis or Nosferatu?"),
])
def test_statements_asked_topics_to_think_of_terse_periods_and_a_pair_then_a_request(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    # a reviewer's probes of the new forms: each was misread by a first version of them
    ("Do you know the film that won Best Picture in 1998? Who directed it?",
     "Who directed the film that won Best Picture in 1998?"),
    ("Game of Thrones creator birthplace", "Where was the creator of Game of Thrones born?"),
    ("Indicate whether Apple is older than Microsoft.", "Is Apple older than Microsoft?"),
    ("Give the year he died.", "In what year did he die?"),
    ("List the films that Spielberg directed.", "What are the films that Spielberg directed?"),
    ("State the year Einstein died.", "In what year did Einstein die?"),
])
def test_probes_of_the_new_forms_read_as_meant(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked", ["Queen Victoria died.", "Describe Obama's wife.",
                                   "In what place did Brazil finish at the 2014 World Cup?"])
def test_probes_that_are_no_query_stay_as_typed(asked: str) -> None:
    assert rephrase(asked) == asked


@pytest.mark.parametrize("asked, read", [
    # courtesy around the question is no part of it
    ("Hi, which of Paper Moon and Grey Harbour was made by the director born later? thanks",
     "Which was made by the director born later, Paper Moon or Grey Harbour?"),
    ("When was the college founded at which Ann Lee taught? (year please)",
     "In what year was the college at which Ann Lee taught founded?"),
    ("Where was Tom Reyes born, please.", "Where was Tom Reyes born?"),
    ("I'd like to confirm: did Ann Lee and Tom Reyes both work as directors?", "Are Ann Lee and Tom Reyes both directors?"),
    # the doer named by a person noun; a thing is no doer
    ("Where was the artist who performed the song Blue Lantern born?", "Where was the performer of the song Blue Lantern born?"),
    ("the person who directed Grey Harbour (Film) — what's their nationality",
     "What is the nationality of the director of Grey Harbour (Film)?"),
    # a statement introduces someone ("by someone", "by a King") or something; the question asks of it
    ("Grey Harbour (1952 Film) was directed by someone; when exactly did that person pass away?",
     "When exactly did the director of Grey Harbour (1952 Film) die?"),
    ("The 1911 Harvest Honours were made by a King — what year did he come into the world?",
     "What year was the King who made the 1911 Harvest Honours born?"),
    ("Ann Lee appeared in a 1940 film; who was its director?", "Who was the director of the 1940 film in which Ann Lee appeared?"),
    # a cleft choice
    ("Was it Grey Harbour or Paper Moon that opened first in Ohio?", "Which opened first in Ohio, Grey Harbour or Paper Moon?"),
    ("Where was Tom Reyes born, thanks", "Where was Tom Reyes born?"),
    ("When was Heat released (just the year please)", "In what year was Heat released?"),
    ("Hi there, who wrote Jolene?", "Who wrote Jolene?"),
    ("Do Ann Lee and Tom Reyes both hold American nationality?", "Are Ann Lee and Tom Reyes both American?"),
    ("The studio album containing the song \"Blue Lantern\" — what does its cover art depict?",
     "What does the cover art of the studio album containing the song \"Blue Lantern\" represent?"),
    ("The trainer who bred Grey Harbour was killed at an airport in Marsh County, Wexshire. Which one?",
     "What is the airport in Marsh County, Wexshire at which the trainer who bred Grey Harbour was killed?"),
    ("Is the director behind Grey Harbour from the same country as whoever made Paper Moon (Film)?",
     "Are the directors of Grey Harbour and Paper Moon (Film) from the same country?"),
    ("Ann Lee's husband used to front a band. In what year did that band split up?",
     "In what year did the band that Ann Lee's husband used to front disband?"),
    ("what year was the group behind Blue Lantern put together", "what year was the group behind Blue Lantern formed?"),
    ("What does the cover art of the album Blue Lantern depict?", "What does the cover art of the album Blue Lantern represent?"),
])
def test_courtesy_doers_statements_that_introduce_and_cleft_choices(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked", ["When was the company that produced Heat founded?",
                                   "Amazon was founded in a garage. Who founded it?",
                                   "Who sang Thank You?", "Who sang Thank You", "Who wrote Please Please Me",
                                   # a reviewer's probes: each was misread by a first version of these rules
                                   "Was it Heat or Ronin that Michael Mann directed?",
                                   "Was it Paris or London that Ann Lee was born in?",
                                   "What team did the captain who led England in 1966 play for?",
                                   "What nationality was the king who built Versailles?",
                                   "Ann Lee wrote a book in 1990; is it true?",
                                   "So there are two films named Heat; which came first?",
                                   "Who created the sitcom, Cheers.", "Who sang Please, Please, Please.",
                                   "Did Ann Lee split up with Tom Reyes?", "Who painted The Depicted Sea?"])
def test_a_thing_is_no_doer_and_a_title_is_no_courtesy(asked: str) -> None:
    assert rephrase(asked).rstrip("?") == asked.rstrip("?")  # (a question typed without its mark gets one)


@pytest.mark.parametrize("asked", [
    "Compare the directors of Dark Harbour and The Long Night: which film's director was born first?",
    "Compare the directors of Dark Harbour and The Long Night and tell me which film's director was born first",
])
def test_a_comparison_asked_after_compare_offers_the_two_names_however_it_is_joined(asked: str) -> None:
    # (tune10) the colon once read "Compare the directors of Dark Harbour" as the first name
    assert rephrase(asked) == "Which film's director was born first, Dark Harbour or The Long Night?"


@pytest.mark.parametrize("asked", [
    "Tom Vey's grandfather on his mother's side — who is he?",
    "Who was Tom Vey's grandfather on his mother's side?",
])
def test_a_relative_on_one_parent_s_side_is_that_parent_s_relative(asked: str) -> None:
    assert re.sub(r"^Who (?:is|was) ", "", rephrase(asked)) == "the father of the mother of Tom Vey?"


def test_the_one_responsible_for_a_thing_is_described_by_a_clause_the_analysis_resolves() -> None:
    from kmrag.nlp.extract import SpacyExtractor
    from kmrag.retrieval.analysis import QuestionAnalyser

    asked = rephrase("What year was the King responsible for the 1931 Harbour Honours born?")
    assert asked == "What year was the King who was responsible for the 1931 Harbour Honours born?"
    sub = QuestionAnalyser(SpacyExtractor()).analyse(asked).sub_question
    assert sub is not None and sub.anchor == "1931 Harbour Honours"
    # said again, or with an adverb, it is left as it is
    assert rephrase(asked) == asked
    assert "solely responsible" in rephrase("Who was the man solely responsible for the Harbour Honours?")


def test_compare_the_relation_of_a_and_b_keeps_the_relation_the_clause_leaves_out() -> None:
    assert rephrase("Compare the directors of Dark Harbour and The Long Night: which was born first?") == \
        "Whose director was born first, Dark Harbour or The Long Night?"


# the fourteenth round's wordings, read from tests/data/reworded/tune8.jsonl and tune9.jsonl, with names of our own;
# a question that matches a rule's shape but means something else stays as it was
FOURTEENTH_ROUND = [
    ("There's a song called Blue Harbour. Where was the person who performed it born?",
     'Where was the performer of the song Blue Harbour born?'),
    ('There is a film named Axis. Who directed it?', 'Who directed the film Axis?'),
    ('Tom Vey appeared in a 1950 film; who helmed it?', 'Who directed the 1950 film in which Tom Vey appeared?'),
    ('Marta Quell appeared in a 1950 film; is it true?', 'Marta Quell appeared in a 1950 film; is it true?'),
    ('Amazon was founded in a garage. Who founded it?', 'Amazon was founded in a garage. Who founded it?'),
    ('Dark Harbour vs The Long Night Of The Salt Marsh Singers: same country for the directors?',
     'Are the directors of Dark Harbour and The Long Night Of The Salt Marsh Singers from the same country?'),
    ('From which country does the director of Axis (Film) come?',
     'Which country does the director of Axis (Film) come from?'),
    ('From what university did Marta Quell graduate?', 'What university did Marta Quell graduate from?'),
    ('What year did the Leeds, Yorkshire rock band that Tom Vey drummed for get together?',
     'What year was the Leeds, Yorkshire rock band that Tom Vey drummed for formed?'),
    ('Distance in miles from Leeds to the town where Tom Vey was born?',
     'What is the distance in miles from Leeds to the town where Tom Vey was born?'),
    ('Dark Harbour and Salt Marsh are two films. Which of them has the director with the earlier birth date?',
     'Which has the director with the earlier date of birth, Dark Harbour or Salt Marsh?'),
    ('Leeds and Hull are cities. Are they in the same country?', 'Are Leeds and Hull in the same country?'),
    ('The director of Dark Harbour (Film) — what nationality?',
     'What is the nationality of the director of Dark Harbour (Film)?'),
    ('Is Leeds in the country where Hull is?', 'Are Leeds and Hull in the same country?'),
    ('Where does the director of Axis (Film) hail from, country-wise?',
     'Which country does the director of Axis (Film) come from?'),
    ('Tom Vey and Ann Ray — who arrived in the world more recently?',
     'Who was born more recently, Tom Vey or Ann Ray?'),
    ("Is Tom Vey's nationality the same as Ann Ray's?", 'Do Tom Vey and Ann Ray have the same nationality?'),
    ('So, the directors of Dark Harbour and Salt Marsh — same home country or not?',
     'Are the directors of Dark Harbour and Salt Marsh from the same country?'),
    ('Dark Harbour (Film) / Salt Marsh (Film): are the two directors from one contry?',
     'Are the directors of Dark Harbour (Film) and Salt Marsh (Film) from the same country?'),
    ('Leeds, Yorkshire and Hull, Yorkshire — both in a single country?',
     'Are Leeds, Yorkshire and Hull, Yorkshire from the same country?'),
    ('Yes or no: Leeds and Hull are in the same country?', 'Are Leeds and Hull in the same country?'),
    ('Can you check whether Leeds is in the same country as Hull?', 'Are Leeds and Hull in the same country?'),
    ('Could you look up the birth date of whoever was behind the camera on Dark Harbour?',
     'What is the date of birth of the director of Dark Harbour?'),
    ('Dark Harbour (1952 Film) director died when?', 'When did the director of Dark Harbour (1952 Film) die?'),
    ('The director of Dark Harbour (1921 Film) passed away where?',
     'Where did the director of Dark Harbour (1921 Film) die?'),
    ('Tom Vey and Ann Ray — who directed them?', 'Tom Vey and Ann Ray — who directed them?'),
    ('Tom Vey was a professor at a university. In what year was it established?',
     'In what year was the university at which Tom Vey was a professor established?'),
    ('Lufthansa is an airline. When was it founded?', 'When was Lufthansa founded?'),
    ('The Leeds steam engine was developed by an English inventor — when was he born?',
     'When was the developer of the Leeds steam engine born?'),
    ('Quick check: is it the case that both Tom Vey and Ann Ray are American?',
     'Are Tom Vey and Ann Ray both American?'),
    ('Is Tufts University or Duke University the older institution?',
     'Which is the older institution, Tufts University or Duke University?'),
    ("Dark Harbour (Film) — his mum's dad was who?", 'Who was the father of the mother of Dark Harbour (Film)?'),
    ('Lufthansa: its founder was who?', 'Who was the founder of Lufthansa?'),
    ('We Sing Together and Total Badass: same country of origin, yes or no?',
     'Are We Sing Together and Total Badass from the same country of origin?'),
    ('Salt Marsh or Dark Harbour, which one was directed by the person born first?',
     'Which one has the director born first, Salt Marsh or Dark Harbour?'),
    ('The film Dark Harbour had a director. On what date did that person come into the world?',
     'When was the director of the film Dark Harbour born?'),
    ('Tom Vey appeared in a 1950 film. Who was behind the camera on it?',
     'Who directed the 1950 film in which Tom Vey appeared?'),
    ('Who was behind the camera on Axis?', 'Who directed Axis?'),
    ("Valentino's or Discovery Zone: which one got its start in Missouri?",
     "Which one got its start in Missouri, Valentino's or Discovery Zone?"),
    ('hey, the filmmaker of Dark Harbour (Film) — on what date were they born?',
     'When were the director of Dark Harbour (Film) born?'),
    ('I wonder whether Dark Harbour (Film) and Salt Marsh have one country of origin. Do they?',
     'Do Dark Harbour (Film) and Salt Marsh have the same country of origin?'),
    ('Did the filmmakers behind Dark Harbour (Film) and Salt Marsh (Film) come from one country?',
     'Did the directors of Dark Harbour (Film) and Salt Marsh (Film) come from the same country?'),
    ("Tom Vey's wife — where did she get her degree?", "Where did Tom Vey's wife get her degree?"),
    ('Abso Lutely Productions produced which sketch comedy series starring Tom Vey?',
     'Which sketch comedy series starring Tom Vey was produced by Abso Lutely Productions?'),
    ('Who produced which series?', 'Who produced which series?'),
    ('Dark Harbour was performed by a group; what year did that group get together?',
     'What year was the performer of Dark Harbour formed?'),
    ('When did Tom Vey and Ann Ray get together?', 'When did Tom Vey and Ann Ray get together?'),
]
# a reviewer's probes of the round's first version: each stays, or reads as it should
FOURTEENTH_ROUND_PROBES = [
    ('Were both Eminem and Madonna born in Michigan?', 'Were both Eminem and Madonna born in Michigan?'),
    ('The Beatles formed what year?', 'In what year did The Beatles form?'),
    ('Apple released what in 2007?', 'Apple released what in 2007?'),
    ('Marie Curie met a scientist in Paris. Where was she born?',
     'Marie Curie met a scientist in Paris. Where was she born?'),
    ('Steve Jobs founded a company with a friend. When was it founded?',
     'Steve Jobs founded a company with a friend. When was it founded?'),
    ('Star Wars: A New Hope was released in 1977, right?', 'Was Star Wars: A New Hope released in 1977?'),
    ("Tell me the director of Inception's birthplace.", "What is the director of Inception's birthplace?"),
    ('Tom Hanks and Meg Ryan: were the movies they made together hits?',
     'Were the movies Tom Hanks and Meg Ryan made together hits?'),
    ('From which university did Barack Obama graduate in 1983?',
     'From which university did Barack Obama graduate in 1983?'),
    ('How many refugees arrived from one country last year?', 'How many refugees arrived from one country last year?'),
    ('Tom and Jerry are characters. Are they both cats?', 'Are Tom and Jerry both cats?'),
    ('Pride and Prejudice / Emma: are the two authors from the same country?',
     'Are the authors of Pride and Prejudice and Emma from the same country?'),
]


@pytest.mark.parametrize("asked, read", FOURTEENTH_ROUND + FOURTEENTH_ROUND_PROBES)
def test_the_fourteenth_round_s_forms(asked: str, read: str) -> None:
    assert rephrase(asked) == read


# the fifteenth round's wordings, read from tests/data/reworded/tune10.jsonl and tune11.jsonl, with names of our own;
# a question that only looks like a rule's shape stays as it was
FIFTEENTH_ROUND = [
    ("Dark Harbour and Grey Orchard — are these two movies from the same country?",
     "Are Dark Harbour and Grey Orchard from the same country?"),  # "these two movies" is the pair
    ("Marlow School and Fenwick Academy: are these two in the same country?",
     "Are Marlow School and Fenwick Academy in the same country?"),
    ("I'd like to find out where Tom Vey's wife graduated.", "Where did Tom Vey's wife graduate?"),
    ("Was Ada Brennan or Tom Vey born more recently?", "Which was born more recently, Ada Brennan or Tom Vey?"),
    ("Is Ada Brennan younger than Tom Vey, or is it the other way around?", "Which is younger, Ada Brennan or Tom Vey?"),
    ("Was Ada Brennan or Tom Vey at the meeting?", "Was Ada Brennan or Tom Vey at the meeting?"),  # no comparative
    ("Is Ada Brennan younger than Tom Vey?", "Is Ada Brennan younger than Tom Vey?"),  # a yes / no question
    ("Dark Harbour vs. Grey Orchard — do the directors share a home country?",
     "Do the directors of Dark Harbour and Grey Orchard have the same country?"),
]


@pytest.mark.parametrize("asked, read", FIFTEENTH_ROUND)
def test_the_fifteenth_round_s_forms(asked: str, read: str) -> None:
    assert rephrase(asked) == read


# the sixteenth round's wordings, read from a tuning set written for it (tune12), with names of our own; a question
# that only looks like a rule's shape stays as it was
SIXTEENTH_ROUND = [
    ("Dark Harbour vs Grey Orchard director born first",
     "Whose director was born first, Dark Harbour or Grey Orchard?"),  # a search box's comparison
    ("Dark Harbour vs. Dark Harbour director born first", "Dark Harbour vs. Dark Harbour director born first"),
    ("Kramer vs. Kramer director", "Who is the director of Kramer vs. Kramer?"),  # a title, nothing compared
    ("Dark Harbour (Film), Grey Orchard (Film): do their directors come from the same country?",
     "Do the directors of Dark Harbour (Film) and Grey Orchard (Film) come from the same country?"),
    ("Ada Brennan, Tom Vey — same nationality?", "Are Ada Brennan and Tom Vey from the same nationality?"),
    ("Opry Hall in Leeton, Kansas — what kind of place is it?", "What kind of place is Opry Hall in Leeton, Kansas?"),
    ("Marlow, Kansas and Fenwick — same country?", "Are Marlow, Kansas and Fenwick from the same country?"),
    ("What's the birthdate of Grey Orchard's director?", "What is the date of birth of Grey Orchard's director?"),
    ("Which school did the woman married to Tom Vey graduate from?",
     "Which school did the wife of Tom Vey graduate from?"),
    ("The director of Grey Orchard: which country is that person from?",
     "Which country is the director of Grey Orchard from?"),
    ("Grey Orchard was founded by someone — when did that person die?", "When did the founder of Grey Orchard die?"),
    ("The coach who trained Tom Vey died at a hospital in Leeton. Which hospital was it?",
     "What is the hospital in Leeton at which the coach who trained Tom Vey died?"),
    ("In what year was the college founded where Ada Brennan taught?",
     "In what year was the college where Ada Brennan taught founded?"),  # the relative clause by its noun
    ("Publication year of the novel Grey Orchard?", "In what year was the novel Grey Orchard published?"),
    ("Ada Brennan died in a town. When was the Old Mill there built?",
     "When was the Old Mill in the town in which Ada Brennan died built?"),  # "there": the place introduced
    ("Ada Brennan died in a town. Is there a museum?", "Ada Brennan died in a town. Is there a museum?"),
    ("Radio KXYZ serves a city — where do buses leave from there?", "Where do buses leave from the city that Radio KXYZ serves?"),
    ("A city council passed a law banning cars. When did the party that holds the majority in that council win "
     "power?", "When did the party that holds the majority in the city council that passed a law banning cars win "
     "power?"),  # "that council" after a preposition points back; "the party that holds" is a relative clause
    ("A city council passed a law banning cars. Who sang the song about that?",
     "A city council passed a law banning cars. Who sang the song about that?"),
    ("Who is the spouse of the man who voiced Ada in Grey Orchard, do you know?",
     "Who is the spouse of the man who voiced Ada in Grey Orchard?"),  # a trailing tag
    ("Dark Harbour, Grey Orchard. Which one's director was born first?",
     "Which one's director was born first, Dark Harbour or Grey Orchard?"),  # a pair set up, then the choice
    ("Think about the films Dark Harbour and Grey Orchard. Which of them came out first?",
     "Which came out first, Dark Harbour or Grey Orchard?"),
    ("Ada Brennan and Tom Vey. Who directed Grey Orchard?", "Ada Brennan and Tom Vey. Who directed Grey Orchard?"),
    ("I'm not sure about this one, but which of Dark Harbour and Grey Orchard came out first?",
     "Which came out first, Dark Harbour or Grey Orchard?"),  # a hedge before the question
    ("Do Dark Harbour and Grey Orchard have directors who come from the same country?",
     "Do the directors of Dark Harbour and Grey Orchard come from the same country?"),
    ("the person who founded Grey Orchard Films died on what date", "When did the founder of Grey Orchard Films die?"),
    ("In 1900, what was the population of the town where Ada Brennan was born?",
     "What was the population of the town where Ada Brennan was born in 1900?"),  # a fronted time or place
    ("During the war that Tom Vey fought in, who led the navy?", "Who led the navy during the war that Tom Vey fought in?"),
    ("In the town where Ada Brennan was born, what did she build?",
     "In the town where Ada Brennan was born, what did she build?"),  # a pronoun: left as asked
    ("Working on a movie trivia sheet: of Dark Harbour and Grey Orchard, which came out first?",
     "Which came out first, Dark Harbour or Grey Orchard?"),  # a lead that says why one asks
    ("Grey Orchard... its director died when?", "When did the director of Grey Orchard die?"),  # dots set the topic
    ("dir. of Grey Orchard — b. when?", "When was the director of Grey Orchard born?"),  # abbreviations
    ("Grey Orchard dir. — d. where?", "Where did the director of Grey Orchard die?"),
    ("Tell me whether Dark Harbour shares its country of origin with Grey Orchard.",
     "Do Dark Harbour and Grey Orchard have the same country of origin?"),
    ("The guy who directed Grey Orchard — when was he born?", "When was the director of Grey Orchard born?"),
    ("[Dark Harbour] or [Grey Orchard]: which came out first?", "Which came out first, Dark Harbour or Grey Orchard?"),
    ("Ada Brennan's hubby was born where?", "Where was the husband of Ada Brennan born?"),
    ("I read that Ada Brennan and Tom Vey were both painters, is that so?", "Were Ada Brennan and Tom Vey both painters?"),
    ("Is Ada Brennan's native country the same as Tom Vey's?", "Do Ada Brennan and Tom Vey have the same nationality?"),
    ("What's the native country of whoever directed Grey Orchard?",
     "What is the nationality of the director of Grey Orchard?"),
    ("He returned to his native country in 1950. Where did he die?",
     "He returned to his native country in 1950. Where did he die?"),  # a place he went back to, not asked
    ("The mayor who opened Grey Orchard Hall — birth year?", "In what year was the mayor who opened Grey Orchard Hall born?"),
    ("Ada Brennan taught at some college — what's that college's founding year?",
     "What is the founding year of the college at which Ada Brennan taught?"),
]

# the review's probes of the round's first version: each was read wrongly, and must stay as asked (or as before)
SIXTEENTH_ROUND_REVIEW = [
    ("In the 1990s, which band released more albums, Oasis or Blur?",
     "In the 1990s, which band released more albums, Oasis or Blur?"),  # not "Blur in the 1990s" as a name
    ("In short, who wrote Hamlet?", "In short, who wrote Hamlet?"),
    ("Cambridge, Massachusetts: are Harvard and MIT in the same district?",
     "Cambridge, Massachusetts: are Harvard and MIT in the same district?"),  # a place and where it is, no pair
    ("London, England. Which bridge was built first?", "London, England. Which bridge was built first?"),
    ("Jaws, Alien. Who directed the first one?", "Jaws, Alien. Who directed the first one?"),
    ("planning a trip to rome - which museum is the oldest?", "planning a trip to rome - which museum is the oldest?"),
    ("Alien vs. Predator released later than Alien?", "Alien vs. Predator released later than Alien?"),
    ("Is Kramer vs Kramer older than Jaws?", "Is Kramer vs Kramer older than Jaws?"),
    ("John Lennon's son: born where?", "Where was John Lennon's son born?"),
    ("Marie Curie was married to someone. Where was she born?",
     "Marie Curie was married to someone. Where was she born?"),  # "she" may be Marie Curie herself
    ("Mozart was born in a city. Why did he leave there?", "Mozart was born in a city. Why did he leave there?"),
    ("Where was John born? a. in Paris b. in London", "Where was John born, in Paris or in London?"),
    ("An Italian explorer reached a coast. Which explorer was it?", "Who is the Italian explorer that reached a coast?"),
    ("Number of episodes of Doctor Who", "How many episodes are there of Doctor Who?"),
    ("Who directed Tick, Tick... boom?", "Who directed Tick, Tick... boom?"),
    ("[REC] director", "[REC] director"),
]


@pytest.mark.parametrize("asked, read", SIXTEENTH_ROUND_REVIEW)
def test_the_sixteenth_round_s_review_probes(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", SIXTEENTH_ROUND)
def test_the_sixteenth_round_s_forms(asked: str, read: str) -> None:
    assert rephrase(asked) == read


def test_published_under_what_title_asks_what_it_was_published_as() -> None:
    assert rephrase("Ada Brennan's novel Grey Orchard was also published under what title?") == \
        "What was Ada Brennan's novel Grey Orchard also published as?"


# the seventeenth round: questions typed into a chat box or said to a phone (tune14's shapes), invented names
SEVENTEENTH_ROUND = [
    ("Harbour Lights (Film) director dob", "When was the director of Harbour Lights (Film) born?"),
    ("pob of whoever sang Blue Kestrel?", "What is the place of birth of the singer of Blue Kestrel?"),
    ("Glass Hours n Iron Bells r they from same country?", "Are Glass Hours and Iron Bells from the same country?"),
    ("are Ada Brennan n Tom Vale from the same country or nah", "are Ada Brennan and Tom Vale from the same country?"),
    ("Ada Brennan and Tom Vale, they're both Welsh, yes?", "Are Ada Brennan and Tom Vale both Welsh?"),
    ("okay so Glass Hours and Iron Bells, Kent are those in the same country",
     "Are Glass Hours and Iron Bells, Kent in the same country?"),
    ("Glass Hours and Iron Bells, Kent both villages in the same country yes or no",
     "Are Glass Hours and Iron Bells, Kent both villages in the same country?"),
    ("Is Glass Hours in the same country like Iron Bells?", "Are Glass Hours and Iron Bells in the same country?"),
    ("Tell me whether Glass Hours lies in the same country where Iron Bells lies.",
     "Does Glass Hours lie in the same country as Iron Bells?"),
    ("Is the director of Glass Hours a fellow countryman of the director of Iron Bells?",
     "Are the director of Glass Hours and the director of Iron Bells from the same country?"),
    ("villages Glass Hours + Iron Bells same country?", "Are Glass Hours and Iron Bells from the same country?"),
    ("were Glass Hours and Iron Bells made by directors of one nationality",
     "were Glass Hours and Iron Bells made by directors of the same nationality?"),
    ("The one who founded Brass Lantern Films, when did he expire?", "When did the founder of Brass Lantern Films die?"),
    ("Tom Vale's wife, from where she got graduated?", "Where did Tom Vale's wife graduate from?"),
    ("the guitarist who co-wrote Iron Bells, which band did he come out of",
     "Which band did the guitarist who co-wrote Iron Bells come out of?"),
    ("where's the director of Glass Hours from, like which country", "Which country is the director of Glass Hours from?"),
    ("where did the person who helmed Glass Hours pass on", "where did the director of Glass Hours die?"),
    ("Whose director was born more late, Glass Hours or Iron Bells? I need the film.",
     "Whose director was born later, Glass Hours or Iron Bells?"),
    ("Ada Brennan, Tom Vale. Who has less years?", "Who is younger, Ada Brennan or Tom Vale?"),
    ("which was founded b4 the other, Orwell College or Vane College",
     "which was founded first, Orwell College or Vane College?"),
    ("um what job are Ada Brennan and Tom Vale both best known for",
     "what profession are Ada Brennan and Tom Vale both best known for?"),
    ("the sketch show w/ Tom Vale that Brass Lantern produced, what's it called",
     "What is the name of the sketch show with Tom Vale that Brass Lantern produced?"),
    ("reading abt Ada Brennan rn. when did her father die", "When did the father of Ada Brennan die?"),
    ("quick q\nGlass Hours and Iron Bells\nwhich one's director was born first",
     "which one's director was born first, Glass Hours or Iron Bells?"),
    ("Glass Hours, Iron Bells - which film had the earlier release",
     "Which film had the earlier release, Glass Hours or Iron Bells?"),
    ("Tom Vale had been a Senator from which state, do you know?", "Which state had Tom Vale been a Senator from?"),
    ("Glass Hours (Film) and Iron Bells directors same nation?",
     "Are the directors of Glass Hours (Film) and Iron Bells from the same country?"),
    ("the inventor behind the Kestrel engine — his dob?", "When was the inventor behind the Kestrel engine born?"),
    ("under what other title was Ada Brennan's novel Grey Orchard published",
     "What was Ada Brennan's novel Grey Orchard also published as?"),
    ("Ada Brennan and Tom Vale — are both of them directors or no?", "Are both Ada Brennan and Tom Vale directors?"),
    ("Grey Orchard is the 2nd novel of which Welsh writer", "Which Welsh writer is Grey Orchard the 2nd novel of?"),
    ("Tom Vale drummed for a rock band from Kent — when was it formed?",
     "When was the rock band from Kent for which Tom Vale drummed formed?"),  # "it": the one thing introduced
    ("Ada Brennan became famous for playing a girl in a film; what does that film's title mean?",
     "What does the title of the film in which Ada Brennan became famous for playing a girl mean?"),
    ("The Kestrel Cup is awarded after a certain series; who won that series in 1990?",
     "Who won the series that the Kestrel Cup is awarded after in 1990?"),
    # comparisons put other ways (invented while probing, no set's wording)
    ("Whose director came first in birth order — Glass Hours's or Iron Bells's?",
     "Whose director came first in birth order — Glass Hours or Iron Bells?"),
    ("I want to know which of two films has the older director: Glass Hours, Iron Bells.",
     "Which film has the older director, Glass Hours or Iron Bells?"),
    ("Which came out earlier: the film Glass Hours or the film Iron Bells?", "Which came out earlier: Glass Hours or Iron Bells?"),
    ("Glass Hours and Iron Bells have different directors; which film's director is older?",
     "Glass Hours and Iron Bells have different directors; which film's director is older?"),  # a statement: as asked
    ("Which of the two films, Glass Hours or Iron Bells, had a director with the earlier birth?",
     "Which film had a director with the earlier birth, Glass Hours or Iron Bells?"),
    ("Who, Ada Brennan or Tom Vale, was born first?", "Who was born first, Ada Brennan or Tom Vale?"),
    ("Glass Hours and Iron Bells are two films. Which one's director was born first?",
     "Which one's director was born first, Glass Hours or Iron Bells?"),
    ("Do Glass Hours and Iron Bells belong to one country?", "Do Glass Hours and Iron Bells belong to the same country?"),
    ("What forename did Tom Vale's father have?", "What was the first name of Tom Vale's father?"),
]

# what the round's rules must leave alone
SEVENTEENTH_ROUND_KEPT = [
    ("From where do buses leave the city Kestrel FM serves?", "From where do buses leave the city Kestrel FM serves?"),
    ("When did Ada Brennan get married?", "When did Ada Brennan get married?"),
    ("Glass Hours / Iron Bells — whose director came first? Which film is it?",
     "Whose director came first? Which film is it, Glass Hours or Iron Bells?"),  # the slash pair as before
    ("Who wrote the song AC/DC recorded first?", "Who wrote the song AC/DC recorded first?"),
    ("When did the bill passed?", "When did the bill passed?"),  # "passed" of a bill is not a death
    ("Cambridge, Massachusetts - which university was founded there first?",
     "Cambridge, Massachusetts - which university was founded there first?"),
    ("Which film has more years of production, Glass Hours or Iron Bells?",
     "Which film has more years of production, Glass Hours or Iron Bells?"),
]


@pytest.mark.parametrize("asked, read", SEVENTEENTH_ROUND)
def test_the_seventeenth_round_s_typed_forms(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", SEVENTEENTH_ROUND_KEPT)
def test_the_seventeenth_round_leaves_these_alone(asked: str, read: str) -> None:
    assert rephrase(asked) == read


def test_the_seventeenth_round_s_forms_are_idempotent() -> None:
    for asked, _ in SEVENTEENTH_ROUND:
        once = rephrase(asked)
        assert rephrase(once) == once, asked


# the seventeenth round's review: probes that read wrongly in its first version, each now as asked (or read right)
SEVENTEENTH_ROUND_REVIEW = [
    ("Lennon's wife, where did he meet her?", "Lennon's wife, where did he meet her?"),  # two people: no topic
    ("Obama's daughters, how many does he have?", "Obama's daughters, how many does he have?"),
    ("Hemingway's novels, which did he write in Cuba?", "Hemingway's novels, which did he write in Cuba?"),
    ("Lennon wrote Imagine, when did he die?", "Lennon wrote Imagine, when did he die?"),  # a clause, no topic
    ("The Titanic sank in 1912, who built it?", "The Titanic sank in 1912, who built it?"),
    ("Okay so the director of Jaws, when was he born?", "Okay so the director of Jaws, when was he born?"),
    ("Who wrote these: Hamlet and Othello?", "Who wrote these: Hamlet and Othello?"),  # both asked of, no choice
    # the second review's probes
    ("Jaws and Alien were filmed in different towns; which town is older?",
     "Jaws and Alien were filmed in different towns; which town is older?"),
    ("Which auction house is older, Sotheby's or Christie's?", "Which auction house is older, Sotheby's or Christie's?"),
    ("Which of the two films, War or Peace or Love and Death, was released first?",
     "Which of the two films, War or Peace or Love and Death, was released first?"),
    ("Which film came out first: Jaws, Alien or Heat?", "Which film came out first: Jaws, Alien or Heat?"),
    ("Which is older: Paris, Texas and Rome?", "Which is older: Paris, Texas and Rome?"),
    ("Who sang whats love got to do with it?", "Who sang whats love got to do with it?"),
    ("Which singer was given name Robyn at birth?", "Which singer was given name Robyn at birth?"),
    ("Do the Kurds belong to one nation?", "Do the Kurds belong to one nation?"),
    ("Tom Hanks starred in a film. When did that film's lead actress die?",
     "When did the lead actress of the film in which Tom Hanks starred die?"),
    ("Tom Hanks adopted a dog. Is it allowed to keep dogs in Los Angeles?",
     "Tom Hanks adopted a dog. Is it allowed to keep dogs in Los Angeles?"),
    ("Glass Hours, a film made for Kestrel TV, is the second of three; which film came before it?",
     "Glass Hours, a film made for Kestrel TV, is the second of three; which film came before it?"),  # apposition
    ("Tom Vale held a professorship at a university; in what year was it established?",
     "Tom Vale held a professorship at a university; in what year was it established?"),  # "it": which of two?
    ("Was Mozart born in the same country where Salzburg is?", "Was Mozart born in the same country where Salzburg is?"),
    ("Is Nashville in the same state where Elvis is from?", "Is Nashville in the same state where Elvis is from?"),
    ("Which exams has she passed?", "Which exams has she passed?"),
    ("Which genes did he pass on?", "Which genes did he pass on?"),
    ("When did the patent expire?", "When did the patent expire?"),
    ("Which of the two was born before the other died?", "Which of the two was born before the other died?"),
    ("Who has more years on the Supreme Court?", "Who has more years on the Supreme Court?"),
    ("Which city has more young people, Austin or Boston?", "Which city has more young people, Austin or Boston?"),
    ("Who directed Yes or No?", "Who directed Yes or No?"),
    ("Who said yes or no?", "Who said yes or no?"),
    ("Jaws and Alien. which one is older or nah", "which one is older, Jaws or Alien?"),
    ("Romeo and Juliet, they're both characters in a play by whom?",
     "Romeo and Juliet, they're both characters in a play by whom?"),
    ("Films by Spielberg whose music was by John Williams", "Films by Spielberg whose music was by John Williams"),
    ("Quincy Jones did the score for The Color Purple", "Quincy Jones did the score for The Color Purple"),
    ("How many mm are in an inch?", "How many mm are in an inch?"),
    ("Is she an rn?", "Is she an rn?"),
    ("Who wrote the book uh oh?", "Who wrote the book uh oh?"),
    ("Who ruled Egypt in 1300 bc?", "Who ruled Egypt in 1300 bc?"),
    ("when was george r r martin born", "when was george r r martin born?"),
    ("what year did the u s enter ww2", "what year did the u s enter ww2?"),
    ("What does the r in R&B stand for?", "What does the r in R&B stand for?"),
    ("who was in n sync", "who was in n sync?"),
    ("so you think you can dance who is the host", "so you think you can dance who is the host"),
    ("well of loneliness, who wrote it?", "well of loneliness, who wrote it?"),
    ("Who are Ryan Adams + The Cardinals?", "Who are Ryan Adams + The Cardinals?"),
    ("The Same Nation is a book by whom?", "Whom is the Same Nation a book by?"),  # (as before this round)
    ("Were all Romans citizens?", "Were all Romans citizens?"),
    ("What job title did Steve Jobs hold?", "What job title did Steve Jobs hold?"),
    ("Which band released an ep before their tv debut?", "Which band released an ep before their tv debut?"),
    ("Under what title was the novel first published?", "What was the novel first published as?"),
    ("hey. quick q. who directed Jaws?", "who directed Jaws?"),
    ("Who directed Jaws? Just checking. year pls", "Who directed Jaws?"),
]


@pytest.mark.parametrize("asked, read", SEVENTEENTH_ROUND_REVIEW)
def test_the_seventeenth_round_s_review_probes(asked: str, read: str) -> None:
    assert rephrase(asked) == read
    assert rephrase(read) == read  # idempotent


@pytest.mark.parametrize("asked, read", [
    ("Who directed\nWhat Women Want?", "Who directed What Women Want?"),  # a title on the next line
    ("Tell me who directed\nWhen Harry Met Sally", "Who directed When Harry Met Sally?"),
    ("hey\nok so\nquick q\nwho directed Jaws?", "who directed Jaws?"),
])
def test_a_question_over_several_lines_is_read_once(asked: str, read: str) -> None:
    from kmrag.retrieval.strategies import check_question

    assert rephrase(check_question(asked)) == read


@pytest.mark.parametrize("asked, read", [
    ("Titanic, Avatar - which came out first?", "Which came out first, Titanic or Avatar?"),
    ("Titanic & Avatar: which was released earlier?", "Which was released earlier, Titanic or Avatar?"),
    ("Tom Hanks, Meg Ryan \u2014 who is older?", "Who is older, Tom Hanks or Meg Ryan?"),
    # a name with "&" or a comma, asked of one thing, is the topic of the question
    ("Marks & Spencer: which year was it founded?", "Which year was Marks & Spencer founded?"),
    ("Paris, Texas - which county is it in?", "Which county is Paris, Texas in?"),
    ("Paris, Texas: who was born there first?", "Paris, Texas: who was born there first?"),
    ("Marks & Spencer: which shops opened in 1990?", "Marks & Spencer: which shops opened in 1990?"),  # no comparison
])
def test_a_pair_listed_with_an_ampersand_or_a_comma_then_compared(asked: str, read: str) -> None:
    assert rephrase(asked) == read
    assert rephrase(read) == read


@pytest.mark.parametrize("asked, read", [
    ("Once I Loved song performer birthplace?", "Where was the performer of the song Once I Loved born?"),
    ("Hank Reinhardt wife alma mater", "Where did the wife of Hank Reinhardt graduate from?"),
    ("Attics To Eden performing group \u2014 year formed?", "When was the performer of Attics To Eden formed?"),
    ("Hank Reinhardt's wife: alma mater", "Where did the wife of Hank Reinhardt graduate from?"),
    ("Lufthansa: founder?", "Who is the founder of Lufthansa?"),
    ("Titanic film", "Titanic film"),  # a kind alone asks nothing
    ("Lufthansa: flights to Munich", "Lufthansa: flights to Munich"),  # not words of what is asked
])
def test_terse_queries_with_a_kind_a_doer_or_two_parts(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    ("Titanic: who is the director?", "Who is the director of Titanic?"),
    ("The Godfather - what was the budget?", "What was the budget of The Godfather?"),
    ("Masherbrum's country: who's the newly elected Chief Justice?",
     "Who is the newly elected Chief Justice of Masherbrum's country?"),
    ("French Without Tears (Film) & Desert Hell \u2014 same country of origin?",
     "Are French Without Tears (Film) and Desert Hell from the same country of origin?"),
    # a noun with its own phrase, a pronoun, a label: asked as typed
    ("Titanic: who is the director of the sequel?", "Titanic: who is the director of the sequel?"),
    ("Titanic: who is the same director?", "Titanic: who is the same director?"),
    ("Q: who is the president?", "who is the president?"),
])
def test_a_topic_then_the_noun_asked_of_it(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    ("director of Titanic nationality?", "What is the nationality of the director of Titanic?"),
    ("the director of Titanic birthplace", "Where was the director of Titanic born?"),
    ("wife of the director of Titanic death date", "When did the wife of the director of Titanic die?"),
    ("winner of the 2014 election", "What is the winner of the 2014 election?"),  # not a person's attribute
    ("Place of death of Sir Crispin Agnew Of Lochnaw's father?",
     "What is the place of death of Sir Crispin Agnew Of Lochnaw's father?"),
])
def test_a_terse_query_may_open_with_the_relations_of_the_name(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    ("Titanic or Avatar \u2014 released first?", "Which was released first, Titanic or Avatar?"),
    ("Tom Hanks or Meg Ryan: born first?", "Which was born first, Tom Hanks or Meg Ryan?"),
    ("Titanic vs Avatar - longer?", "Which is longer, Titanic or Avatar?"),
    ("Titanic or Avatar: more expensive", "Which is more expensive, Titanic or Avatar?"),
    # a question after the pair is read as it is, not as the words that compare
    ("Duke University or Tufts University: which was established earlier?",
     "Which was established earlier, Duke University or Tufts University?"),
    ("Sangre De Mayo vs Hell Boats director born first", "Whose director was born first, Sangre De Mayo or Hell Boats?"),
    ("Titanic or Avatar: which one", "Which one, Titanic or Avatar?"),
])
def test_a_pair_then_only_the_words_that_compare_them(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked", [
    # a topic that is a clause, a label, or a thing asked about itself (the review's probes)
    "Tom Hanks won two Oscars: what were the films?", "Apple makes iPhones: who is the CEO?",
    "Obama met the Pope: who is the Pope?", "Geography: what is the largest country?", "Sports: who is the best player?",
    "Star Wars: what is the Force?", "Texas: who is the governor now?", "FYI - what is the plan?",
    # one name with "&" or a comma, asked of its own things; a choice already offered
    "Simon & Garfunkel: which album came out first?", "Barnes & Noble: which store opened first?",
    "Austin, Texas: which university was founded first?", "London, UK: which is the oldest bridge?",
    "Star Wars, Episode IV - which actor was the youngest?", "Thanks, Tom Hanks - who is older, Tom or Meg?",
    # a pair, then words that are no comparison read as one ("scored more goals" is no passive)
    "Messi or Ronaldo: scored more goals?", "Coke or Pepsi - more sugar?", "Barcelona or Madrid: bigger city?",
    # a description, or a person and a verb, is no terse query
    "Michael Jackson recording artist", "Bill Gates founded", "Tom Hanks formed",
])
def test_the_nineteenth_round_s_review_probes_stay_as_asked(asked: str) -> None:
    assert rephrase(asked) == asked


@pytest.mark.parametrize("asked, read", [
    ("Apple: who is the CEO?", "Who is the CEO of Apple?"),
    ("Simon & Garfunkel: who was born first?", "Who was born first, Simon or Garfunkel?"),
    ("Dr. Dre, Eminem - who was born first?", "Who was born first, Dr. Dre or Eminem?"),
    ("Harvard or Yale: founded first?", "Which was founded first, Harvard or Yale?"),
    ("Coke or Pepsi - more popular?", "Which is more popular, Coke or Pepsi?"),
    # "&" inside a name when "vs" or "and" joins the two
    ("Procter & Gamble vs Unilever - same country?", "Are Procter & Gamble and Unilever from the same country?"),
    ("Marks & Spencer and Tesco: same country?", "Are Marks & Spencer and Tesco from the same country?"),
    ("Steve Jobs alma mater", "Where did Steve Jobs graduate from?"),
    ("Steve Jobs education", "Where was Steve Jobs educated?"),
    ("Apple Inc.: year founded", "When was Apple Inc. founded?"),
    ("Apple Inc. founding date", "When was Apple Inc. founded?"),
])
def test_the_nineteenth_round_s_review_probes_read_as_meant(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    # a pair named, then one of the two asked about as the first / the former, the second / the latter
    ("Titanic and Avatar are films: who directed the first?", "Who directed Titanic?"),
    ("Titanic and Avatar. Where was the director of the latter born?", "Where was the director of Avatar born?"),
    ("Titanic and Avatar — the former was directed by whom?", "Who directed Titanic?"),
    ("Titanic and Avatar: the second one came out when?", "When did Avatar come out?"),
    # "&" joins the pair: a capitalised "And" inside a title does not split it
    ("The Young And The Guilty & Brothers' Nest: which one came out first?",
     "Which one came out first, The Young And The Guilty or Brothers' Nest?"),
])
def test_a_pair_then_one_of_the_two_pointed_at(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked", [
    # the wh-word points back into the statement: no clause of its own to turn round ("... Rajasthan —?" before)
    "Mundawar is a city 140km away from a State capital of Rajasthan — which one?",
    "X played for a team in a league: which one?",
    # "the first" that compares, or that is a noun's
    "Simon and Garfunkel: who was the first to die?",
])
def test_a_pointer_back_or_a_comparing_first_stays_as_asked_or_compared(asked: str) -> None:
    read = rephrase(asked)
    assert "\u2014?" not in read and ":?" not in read and not read.endswith(("—?", "-?"))
    assert read == asked or read == "Who was the first to die, Simon or Garfunkel?"


@pytest.mark.parametrize("asked, read", [
    # the pronoun points at an unnamed thing of the statement, not at the statement ("Where does Said Ashour was
    # employed at some place rank ...?" before): left as asked
    ("Said Ashour was employed at some place — where does it rank according to QS World University Rankings?",
     "Said Ashour was employed at some place — where does it rank according to QS World University Rankings?"),
    ("Hank Reinhardt was married to someone — what school did she graduate from?",
     "Hank Reinhardt was married to someone — what school did she graduate from?"),
    ("Some Like It Hot — who directed it?", "Who directed Some Like It Hot?"),
    # "I read that ... — is that so?": the dash goes with the tag ("... the same country —?" before)
    ("I read that Nagazeh-Ye Kuchak and Abadi Chaleh are located in the same country — is that so?",
     "Are Nagazeh-Ye Kuchak and Abadi Chaleh located in the same country?"),
])
def test_no_statement_stands_for_a_pronoun_and_no_dash_is_left_hanging(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    # a name's comma left before the mark ("... or Matrimonium,?", "... Thinking About You,?" before)
    ("Kaala Patthar vs Matrimonium, which one hit screens earlier?",
     "Which one hit screens earlier, Kaala Patthar or Matrimonium?"),
    ("Turn Me On, the song by the Thinking About You performer, was penned by whom?",
     "Who penned Turn Me On, the song by the Thinking About You performer?"),
    # the participle's past ("Who written ..." before)
    ("Turn Me On, by the performer of Thinking About You, was written by whom?",
     "Who wrote Turn Me On, by the performer of Thinking About You?"),
    ("The song was sung by whom?", "Who sang the song?"),
    # two statements joined introduce more than one thing: left as asked ("When did The performer of III was born
    # in a place, and there start?" before)
    ("The performer of III was born in a place, and there was a battle of that place. When did that battle start?",
     "The performer of III was born in a place, and there was a battle of that place. When did that battle start?"),
])
def test_no_comma_before_the_mark_no_participle_as_a_verb_no_two_statements_merged(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    # the review's probes: "the first" said of the answer is who came first, a comparison ("Which was Oxford
    # founded?" before the fix)
    ("Oxford and Cambridge: which was the first founded?", "Which was the first founded, Oxford or Cambridge?"),
    ("Mozart and Beethoven: who was the first born?", "Who was the first born, Mozart or Beethoven?"),
    ("Batman and Robin: which of them was the first?", "Which of them was the first, Batman or Robin?"),
    ("Alien and Aliens: which one was the first released?", "Which one was the first released, Alien or Aliens?"),
    # both pointed at, a title with "and", a lead that is no name: as asked, not half rewritten
    ("Mozart and Beethoven: was the first older than the second?",
     "Mozart and Beethoven: was the first older than the second?"),
    ("Pride and Prejudice and Emma are novels. When was the latter published?",
     "Pride and Prejudice and Emma are novels. When was the latter published?"),
    ("War and Peace and Anna Karenina: who wrote the first?", "War and Peace and Anna Karenina: who wrote the first?"),
    ("Both Titanic and Avatar are films: who directed the first?",
     "Both Titanic and Avatar are films: who directed the first?"),
    ("I like Titanic and Avatar. Who directed the first?", "I like Titanic and Avatar. Who directed the first?"),
    # titles beginning "Some..." are names; a pair with "&" in one name still splits at "and"
    ("Someone Like You — who sang it?", "Who sang Someone Like You?"),
    ("The director of Something Wild — when was he born?", "When was the director of Something Wild born?"),
    ("Marks & Spencer and Tesco. Which was founded first?", "Which was founded first, Marks & Spencer or Tesco?"),
    # "which one" at the end of a plain clause is still turned round
    ("The author wrote which one?", "Which one did the author write?"),
    ("Mr. Smith wrote which book?", "Which book did Mr. Smith write?"),
    # ... but not after a sentence's full stop: "Which one does Two films, ... than the other.?" before
    ("Two films, The Young And The Guilty and Brothers' Nest, and one of them has a younger director than the other. "
     "Which one?", "Two films, The Young And The Guilty and Brothers' Nest, and one of them has a younger director "
     "than the other. Which one?"),
])
def test_the_twentieth_round_s_review_probes(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    # a name whose first word is an auxiliary ("Will James") is still the subject turned round
    ("Tell me whether Will James (artist) and Samuel Hanson Stone came from one and the same country.",
     "Did Will James (artist) and Samuel Hanson Stone come from the same country?"),
    # the passive in the present tense, with the wh-word at the end
    ("Sea Of Flags is performed by an artist born on which date?",
     "When was the artist by whom Sea Of Flags is performed born?"),
    ("Jaws is directed by a man born in which city?", "Where was the director of Jaws born?"),
    ("Jaws is directed by whom?", "Who directed Jaws?"),
    # a statement, then a question about what it introduced: the owned noun is the one the parse says
    ("A 2008 film scripted by Andrew Davies adapted an 1811 book. How many major novels did that book's author write "
     "in total?", "How many major novels did the author of the 1811 book that a 2008 film scripted by Andrew Davies "
     "adapted write in total?"),
    ("Tom played in a band. Where did that band's lead singer grow up?",
     "Where did the lead singer of the band in which Tom played grow up?"),
    # ... and a thing introduced as the doer of a participle ("a cup hosted by a state")
    ("Tom played in a league organised by a company. Who founded that company?",
     "Who founded the company that organised the league in which Tom played?"),
    # "the place where X was born" is X's birthplace
    ("In which county is the place where Erik Hort was born?", "In which county is the birthplace of Erik Hort?"),
])
def test_the_twenty_eighth_round_s_forms(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    ("Alice lives in a house built by a firm. Who founded that firm?",
     "Who founded the firm that built the house in which Alice lives?"),
    ("Tom studied at a school run by a charity. When was that charity founded?",
     "When was the charity that ran the school at which Tom studied founded?"),
])
def test_a_thing_introduced_as_the_doer_of_an_irregular_participle(asked: str, read: str) -> None:
    assert rephrase(asked) == read


@pytest.mark.parametrize("asked, read", [
    # forms of the blind7 reworded set, read after it was measured (it is a tuning set from then on)
    ("Did Matrimonium come out before Kaala Patthar, or was it the other way around?",
     "Which came out first, Matrimonium or Kaala Patthar?"),
    ("Was Mozart born before Haydn, or vice versa?", "Which was born first, Mozart or Haydn?"),
    ("On what day of the year was the performer of the song Sea Of Flags born?",
     "When was the performer of the song Sea Of Flags born?"),
    ("Cadets Of St. Martin and Hussar Fever each have a director. Which film's director was born earlier?",
     "Which film's director was born earlier, Cadets Of St. Martin or Hussar Fever?"),
    ("XXXTentacion's single \"Revenge\" was distributed by a company based where?",
     "Where was the company by which XXXTentacion's single \"Revenge\" was distributed based?"),
    ("Author of the book that inspired the name of the CD/DVD \"Here at the End of All Things\"?",
     "Who is the author of the book that inspired the name of the CD/DVD \"Here at the End of All Things\"?"),
    ("Erik Hort's birthplace belongs to which county?", "Which county is Erik Hort's birthplace in?"),
    ("List the occupations shared by Ian Hunter and Rob Thomas.",
     "What occupations do both Ian Hunter and Rob Thomas have?"),
    # a title with "and" in the statement is not split into a pair
    ("Pride and Prejudice and Emma are novels. Which was published first?",
     "Pride and Prejudice and Emma are novels. Which was published first?"),
])
def test_the_twenty_eighth_round_s_blind7_forms(asked: str, read: str) -> None:
    assert rephrase(asked) == read


def test_a_day_of_each_week_asked_is_not_read_as_when() -> None:
    """"On which day is the gallery closed?" was read "When is the gallery closed?" and answered with the date the
    centre reopened in 2018, at 0.62."""
    assert rephrase("On which day is the gallery closed?") == "On which day is the gallery closed?"
    assert rephrase("On which day does the market run?") == "On which day does the market run?"
    assert rephrase("On what day did X die?") == "When did X die?"
